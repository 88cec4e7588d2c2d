"""Named islands from the R maps world database `worldHires` (CIA World Data Bank II), stdlib only.

The database is three files: `.N` names ("Country:Island<TAB>polygon"), `.G` polygons (lists of line numbers)
and `.L` lines (float32 points). A polygon is kept as an island when

- it is not a water body (lakes and seas carry names such as "Lake …", "Lago …", "… Ozero", "IJsselmeer"), and
- it is not part of a continent: polygons that share a border line are joined into land masses (water bodies do
  not join them), and the land masses larger than 5 million km² (Afro-Eurasia, the Americas, Antarctica,
  Australia) are left out — so "USA:Alaska", "Malaysia:Malay Penninsula" or "China:Hong Kong" are not islands,
  and
- it has a name of its own (see `island_name`).

Rings are simplified with Douglas–Peucker at `TOLERANCE_M`, never below four distinct vertices.
"""

import math
import re
import struct

import chords

# The decoded database works in radians (coordinate type 2: spherical).
SPHERICAL = 2
# World Data Bank II was digitised at about 1:3,000,000 and is no sharper than a few hundred metres; 250 m keeps
# the layer near 0.8 MB (100 m would double it for no real gain).
TOLERANCE_M = 250.0
MINIMUM_VERTICES = 4
CONTINENT_KM2 = 5_000_000
EARTH_RADIUS_KM = 6371.0088

WATER = re.compile(
    r"\b(Lakes?|Lago|Laguna|Lacul|Ozero|Ozeros|Hawr|Sea|Vodokhranilishche|Zaliv)\b|meer$", re.IGNORECASE
)
# A polygon named "Island:North" is a piece of Island, not an island called North; "… Bight" is a bay.
POSITIONAL = re.compile(r"^(North|South|East|West)$|\bBight$")
PLACEHOLDER = re.compile(r"^(\?|\d*)$")


def island_name(full_name):
    """The island's name in a worldHires polygon name, or None when the polygon has no name of its own.

    "New Zealand:Antipodes Island" -> "Antipodes Island"; with further colons the most specific part:
    "UK:Scotland:Isle of Lewis" -> "Isle of Lewis". Positional pieces name the part before them:
    "Canada:Chapman Lewes Island:South" -> "Chapman Lewes Island", "Brunei:East" -> "Brunei". A placeholder
    as the most specific part ("Norway:?", "USSR:Lena Delta:5", "USA:Alaska:?") means an unnamed polygon: None.
    A name without a colon ("Sicily", "Madagascar") is the island's own name (or its country's, when the
    country is the island).
    """
    parts = [part.strip() for part in full_name.split(":")]
    while len(parts) > 1 and POSITIONAL.search(parts[-1]):
        parts.pop()
    name = parts[-1]
    if PLACEHOLDER.match(name):
        return None
    return name


def is_water(full_name):
    return any(WATER.search(part) for part in full_name.split(":"))


class WorldDatabase:
    """The polygons of an R maps binary database (.N, .G, .L), little-endian."""

    def __init__(self, names_text, polygons, lines):
        self.polygons, self.lines = polygons, lines
        coordinate_type, self.line_count = struct.unpack_from("<ii", lines, 0)
        if coordinate_type != SPHERICAL:
            raise ValueError(f"worldHires.L: coordinate type {coordinate_type}, expected {SPHERICAL}")
        (self.polygon_count,) = struct.unpack_from("<H", polygons, 0)
        self.names = {}
        for row in names_text.splitlines():
            if row:
                name, number = row.rsplit("\t", 1)
                self.names[int(number)] = name
        if sorted(self.names) != list(range(1, self.polygon_count + 1)):
            raise ValueError(f"worldHires.N: {len(self.names)} names for {self.polygon_count} polygons")

    def line_numbers(self, polygon):
        """Signed line numbers of a polygon (negative: the line runs backwards)."""
        offset, count = struct.unpack_from("<IB", self.polygons, 2 + 24 * (polygon - 1))
        return struct.unpack_from(f"<{count}i", self.polygons, offset)

    def sides(self, line):
        """The polygons left and right of a line (0: the sea or nothing)."""
        return struct.unpack_from("<HH", self.lines, 8 + 28 * (abs(line) - 1) + 6)

    def points(self, line):
        """A line's points as (lat, lon) in degrees, in the direction the sign asks for."""
        offset, count = struct.unpack_from("<IH", self.lines, 8 + 28 * (abs(line) - 1))
        xy = struct.unpack_from(f"<{2 * count}f", self.lines, offset)
        points = [(math.degrees(xy[2 * i + 1]), math.degrees(xy[2 * i])) for i in range(count)]
        return points if line > 0 else points[::-1]

    def ring(self, polygon):
        """The polygon's boundary: its lines joined end to end (each line starts where the last ended)."""
        ring = []
        for line in self.line_numbers(polygon):
            points = self.points(line)
            ring.extend(points[1:] if ring and ring[-1] == points[0] else points)
        return ring


def area_km2(ring):
    """Area of a ring of (lat, lon) on a sphere (the ring closed implicitly)."""
    total = 0.0
    for (lat1, lon1), (lat2, lon2) in zip(ring, ring[1:] + ring[:1]):
        total += math.radians(lon2 - lon1) * (2 + math.sin(math.radians(lat1)) + math.sin(math.radians(lat2)))
    return abs(total) * EARTH_RADIUS_KM**2 / 2


def land_masses(database, water):
    """Each land polygon's land mass (a representative polygon), joining polygons that share a line."""
    parent = {polygon: polygon for polygon in database.names if polygon not in water}

    def root(polygon):
        while parent[polygon] != polygon:
            parent[polygon] = parent[parent[polygon]]
            polygon = parent[polygon]
        return polygon

    for polygon in sorted(parent):
        for line in database.line_numbers(polygon):
            for other in database.sides(line):
                if other in parent and other != polygon:
                    a, b = sorted((root(polygon), root(other)))
                    parent[b] = a
    return {polygon: root(polygon) for polygon in parent}


def simplify(ring, tolerance_m=TOLERANCE_M, minimum=MINIMUM_VERTICES):
    """Douglas–Peucker on a closed ring (first point not repeated at the end), keeping at least `minimum` points.

    Distances are measured in a local equirectangular projection around the ring's mean latitude. Every
    point gets the distance at which Douglas–Peucker would keep it; those above the tolerance are kept,
    and when fewer than `minimum` are, the most significant ones are added back.
    """
    count = len(ring)
    if count <= minimum:
        return list(ring)
    scale_y = math.pi * EARTH_RADIUS_KM * 1000 / 180
    scale_x = scale_y * math.cos(math.radians(sum(lat for lat, _ in ring) / count))
    xy = [(lon * scale_x, lat * scale_y) for lat, lon in ring]
    # Split the ring at its first point and the point farthest from it.
    far = chords.farthest_from_first(xy)
    significance = [0.0] * count
    significance[0] = significance[far] = math.inf
    closed = xy + [xy[0]]
    stack = [(0, far), (far, count)]
    while stack:
        start, end = stack.pop()
        if end - start < 2:
            continue
        best, best_squared = chords.farthest_from_chord(closed, start, end)
        best_distance = math.sqrt(best_squared)
        significance[best] = best_distance
        stack.append((start, best))
        stack.append((best, end))
    keep = {i for i in range(count) if significance[i] > tolerance_m}
    if len(keep) < minimum:
        ranked = sorted(range(count), key=lambda i: (-significance[i], i))
        keep = set(ranked[:minimum])
    return [ring[i] for i in sorted(keep)]


def wrapped(ring):
    """The ring, plus a copy shifted by 360° when it crosses ±180° longitude, so either side finds it."""
    lons = [lon for _, lon in ring]
    if max(lons) > 180:
        return [ring, [(lat, lon - 360) for lat, lon in ring]]
    if min(lons) < -180:
        return [ring, [(lat, lon + 360) for lat, lon in ring]]
    return [ring]


def read_islands(names_text, polygons, lines):
    """Named islands as (name, polygon number, rings of (lat, lon)), sorted by name then polygon; and counts."""
    database = WorldDatabase(names_text, polygons, lines)
    water = {polygon for polygon, name in database.names.items() if is_water(name)}
    masses = land_masses(database, water)
    rings = {polygon: database.ring(polygon) for polygon in masses}
    mass_area = {}
    for polygon, mass in masses.items():
        mass_area[mass] = mass_area.get(mass, 0.0) + area_km2(rings[polygon])
    islands, unnamed, continental = [], 0, 0
    for polygon in sorted(masses):
        if mass_area[masses[polygon]] > CONTINENT_KM2:
            continental += 1
            continue
        name = island_name(database.names[polygon])
        if name is None:
            unnamed += 1
            continue
        ring = rings[polygon]
        if len(ring) > 1 and ring[0] == ring[-1]:
            ring = ring[:-1]
        islands.append((name, polygon, wrapped(simplify(ring))))
    islands.sort(key=lambda island: (island[0], island[1]))
    counts = {
        "polygons": len(database.names),
        "water": len(water),
        "continental": continental,
        "unnamed": unnamed,
        "islands": len(islands),
    }
    return islands, counts
