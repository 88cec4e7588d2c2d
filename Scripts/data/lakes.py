"""Lake names for GSHHG's lakes, from three named sources, stdlib only.

GSHHG draws the lakes (level 2) but names none. Three sources that may be bundled name some:

1. Natural Earth 1:110m lakes (`ne_110m_lakes`, public domain): 25 polygons, the only source that draws Lake
   Michigan and Lake Huron apart (GSHHG joins them at the Straits of Mackinac);
2. the R maps database `lakes` (Natural Earth 1:50m, GPL-2 as packaged): 91 polygons, most of them the islands
   of the lakes drawn as pieces ("Great Lakes:Superior:7");
3. the water bodies of `worldHires` (CIA World Data Bank II, public domain): 37 polygons.

Each named polygon is matched to the GSHHG lake that holds most of it: points on a grid over the polygon's box
that lie inside it are located among GSHHG's polygons (the highest level holding a point decides, so a point on
an island in the lake does not count), and the lake holding the most of them, at least a quarter, is its lake.
A polygon whose points mostly lie on land or at sea by GSHHG (a drained marsh, a lagoon GSHHG counts as sea) is
left out and reported.

Polygons matched to one GSHHG lake are one lake when they overlap, and then the first source's name wins. Polygons
that do not overlap are different lakes in one GSHHG polygon (Michigan and Huron; Erie and St. Clair), told apart
at run time by the polygon holding the point, else the nearest. A name matched to several GSHHG lakes belongs to
the one most sources name so (Natural Earth 1:110m labels the Great Salt Lake "Lake Onega").
"""

import re

import islands
import territories

# Names as the sources spell them -> the name Tunnel gives, where the source abbreviates, drops a diacritic or
# misspells (Lagoa Mirim's name in the R database lacks its r).
RENAMED = {
    "Malaren": "Mälaren",
    "Vanern": "Vänern",
    "Lagoa Minim": "Lagoa Mirim",
    "Ysyk Kol": "Issyk-Kul",
    "Rybinsk Res.": "Rybinsk Reservoir",
    "Rybinskoye Vodokhranilishche": "Rybinsk Reservoir",
    "Res. Manicouagan": "Manicouagan Reservoir",
    "Ladozhskoye Ozero": "Lake Ladoga",
    "Onezhskoy Ozero": "Lake Onega",
    "Ozero Balkhash": "Lake Balkhash",
    "Lake Titicaca": "Lago Titicaca",
    "Vislinskiy Zaliv": "Vistula Lagoon",
}
# A generic word alone is no name ("Black Sea:Ozeros", "USSR:Zaliv": lakes, a bay).
GENERIC = re.compile(r"^(Ozero|Ozeros|Zaliv|Lakes?|Lago|Laguna)$")
# Pieces of a lake in the R databases: numbered parts, unnamed ones, and the islands drawn inside a lake.
PIECE = re.compile(r"^(\d+|\?|)$")
# Grid of sample points over a polygon's box, and the share of its inside points one GSHHG lake must hold.
SAMPLES_PER_SIDE = 24
MINIMUM_SHARE = 0.25
INDEX_CELL_DEG = 1.0
# World Data Bank II's smallest water polygons are misnamed or misdrawn ("Lake Pasvikelv" names a river; its
# "Lago de Managua" is 52 km^2 where the lake is over 1,000): below this area they are left out.
WORLD_HIRES_MINIMUM_KM2 = 100.0
# Sources from the least to the most detailed outline.
DETAIL = ["ne_110m_lakes", "worldHires", "maps"]


def source_name(full_name):
    """The lake's name in an R maps polygon name, or None for a piece that is not the lake itself.

    "Great Lakes:Erie" -> "Lake Erie"; "Canada:Great Bear Lake" -> "Great Bear Lake"; "Res. Manicouagan:" ->
    "Res. Manicouagan"; "Lake Victoria:3", "?", "Great Lakes:Huron:Manitoulin Island", "IJsselmeer:Zuid-Flevoland"
    and "Great Lakes:Superior, Huron, Michigan" (three lakes in one polygon) -> None.
    """
    parts = [part.strip() for part in full_name.split(":")]
    if parts[0] == "Great Lakes":
        if len(parts) != 2 or "," in parts[1]:
            return None
        return "Lake " + parts[1]
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if len(parts) > 1 and not islands.is_water(parts[-1]) and islands.is_water(":".join(parts[:-1])):
        return None  # a piece of a lake: "Lake Victoria:3", "IJsselmeer:Zuid-Flevoland"
    name = parts[-1]
    if PIECE.match(name) or "?" in name or GENERIC.match(name):
        return None
    return name


class CoastIndex:
    """GSHHG polygons of level 2 and above (lakes, islands in lakes, ponds), bucketed by their boxes."""

    def __init__(self, polygons):
        self.polygons = polygons
        self.boxes = {}
        self.cells = {}
        for index, (level, _area, _source, ring) in enumerate(polygons):
            if level < 2 or level > 4:
                continue
            box = territories.ring_box(ring)
            self.boxes[index] = box
            south, north, west, east = box
            for row in range(int(south // INDEX_CELL_DEG), int(north // INDEX_CELL_DEG) + 1):
                for column in range(int(west // INDEX_CELL_DEG), int(east // INDEX_CELL_DEG) + 1):
                    self.cells.setdefault((row, column), []).append(index)

    def lake_at(self, lat, lon):
        """The GSHHG lake (level 2) that is the highest level holding the point, or None."""
        best = None
        for index in self.cells.get((int(lat // INDEX_CELL_DEG), int(lon // INDEX_CELL_DEG)), ()):
            south, north, west, east = self.boxes[index]
            if south <= lat <= north and west <= lon <= east:
                level, _area, _source, ring = self.polygons[index]
                if territories.inside(ring, lat, lon) and (best is None or level > self.polygons[best][0]):
                    best = index
        return best if best is not None and self.polygons[best][0] == 2 else None


def inside_rings(rings, lat, lon):
    return sum(territories.inside(ring, lat, lon) for ring in rings) % 2 == 1


def sample_points(rings):
    """Points of a grid over the rings' box that lie inside the rings (even-odd)."""
    south, north, west, east = territories.ring_box([point for ring in rings for point in ring])
    points = []
    for row in range(SAMPLES_PER_SIDE):
        for column in range(SAMPLES_PER_SIDE):
            lat = south + (north - south) * (row + 0.5) / SAMPLES_PER_SIDE
            lon = west + (east - west) * (column + 0.5) / SAMPLES_PER_SIDE
            if inside_rings(rings, lat, lon):
                points.append((lat, lon))
    return points


def match_lakes(candidates, polygons):
    """Named lakes matched to GSHHG lakes.

    candidates: (source rank, source label, name, rings) in order of preference (lower rank first).
    polygons: GSHHG polygons as written to coastline-h.tunnel, (level, area, source id, ring), in feature order.

    Returns (lakes, report): lakes as (name, coast feature index, rings) sorted by GSHHG feature and name, then
    the named water none of which lies in a GSHHG lake (GSHHG draws the IJsselmeer as sea) with coast None, by
    name; report: lines saying what was left out and why.
    """
    index = CoastIndex(polygons)
    report = []
    waters = []  # (name, rings) of named water that no GSHHG lake holds
    matched = []  # (rank, label, name, rings, coast, samples)
    for rank, label, name, rings in candidates:
        samples = sample_points(rings)
        votes = {}
        for lat, lon in samples:
            lake = index.lake_at(lat, lon)
            if lake is not None:
                votes[lake] = votes.get(lake, 0) + 1
        best = max(votes, key=lambda lake: (votes[lake], -lake)) if votes else None
        if best is None or votes[best] < MINIMUM_SHARE * max(1, len(samples)):
            share = votes[best] / len(samples) if best is not None and samples else 0.0
            if share == 0 and not any(water[0] == name for water in waters):
                report.append(f"{label} {name}: none of it in a GSHHG lake, kept to name the sea there")
                waters.append((name, rings))
            else:
                report.append(f"{label} {name}: {share:.0%} of it in one GSHHG lake, left out")
            continue
        matched.append((rank, label, name, rings, best, samples))
    # Polygons in one GSHHG lake that overlap are one lake.
    clusters = []  # lists of matched items, all in one GSHHG lake
    for item in sorted(matched, key=lambda item: item[0]):
        _rank, _label, _name, rings, coast, samples = item
        same = next(
            (
                cluster
                for cluster in clusters
                if cluster[0][4] == coast
                and any(
                    any(inside_rings(other[3], lat, lon) for lat, lon in samples)
                    or any(inside_rings(rings, lat, lon) for lat, lon in other[5])
                    for other in cluster
                )
            ),
            None,
        )
        if same is None:
            clusters.append([item])
        else:
            same.append(item)
    # A lake's name is the one most of its sources give (the best-ranked source breaks a tie); its outline is
    # the most detailed source's that gives that name.
    lakes = []  # (name, coast, rings, number of sources giving the name)
    for cluster in clusters:
        sources = {}
        for rank, label, name, _rings, _coast, _samples in cluster:
            sources.setdefault(name, {})[label] = min(rank, sources.get(name, {}).get(label, rank))
        name = max(sources, key=lambda name: (len(sources[name]), -min(sources[name].values())))
        for other in sorted(set(sources) - {name}):
            report.append(f"{'/'.join(sorted(sources[other]))} {other}: the same lake as {name}, which more sources name")
        outline = max(
            (item for item in cluster if item[2] == name), key=lambda item: DETAIL.index(item[1].split()[0])
        )
        lakes.append((name, cluster[0][4], outline[3], len(sources[name])))
    # One name, one lake: where a name is given to several GSHHG lakes, most sources decide.
    by_name = {}
    for lake in lakes:
        by_name.setdefault(lake[0], []).append(lake)
    kept = []
    for name, found in by_name.items():
        found.sort(key=lambda lake: (-lake[3], -polygons[lake[1]][1]))
        kept.append(found[0])
        for other in found[1:]:
            report.append(f"{name} at GSHHG polygon {other[1]}: the name is another lake's, left out")
    kept.sort(key=lambda lake: (lake[1], lake[0]))
    return [(name, coast, rings) for name, coast, rings, _count in kept] + [
        (name, None, rings) for name, rings in sorted(waters)
    ], report


def renamed(name):
    return RENAMED.get(name, name)
