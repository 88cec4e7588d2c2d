"""Writer of Tunnel's compact data files (format version 3). Data/FORMAT.md is the specification."""

import struct
import zlib

MAGIC = b"TUNLDATA"
FORMAT_VERSION = 3
HEADER_SIZE = 64
SECTION_ENTRY_SIZE = 24
# Readers check each block of this many payload bytes against its own checksum the first time they read it.
BLOCK_SIZE = 4096
NO_INDEX = 0xFFFFFFFF

# Fixed-point units per degree: places keep GeoNames' decimals exactly; borders and seas are quantised to 1e-5 degree
# (about 1.1 m); coastlines and time zones, whose sources are far coarser, to 1e-4 degree (about 11 m).
PLACE_UNITS_PER_DEGREE = 10_000_000
FINE_UNITS_PER_DEGREE = 100_000
COARSE_UNITS_PER_DEGREE = 10_000
CHUNK_EDGES = 64
# The ring grid (RGRD) of a polygon layer: cells of this many degrees; a ring whose box covers more cells than
# RING_GRID_WIDE is listed once, with its box, among the wide rings instead of in every cell.
RING_GRID_DEGREES = 2
RING_GRID_WIDE = 16
RING_GRID_STEPS = 256


def fixed(value, units):
    """Degrees to fixed-point, rounding half away from zero (deterministic, unlike round())."""
    scaled = value * units
    return int(scaled + 0.5) if scaled >= 0 else -int(-scaled + 0.5)


class StringPool:
    """Deduplicated UTF-8 strings, numbered in first-use order; index 0 is the empty string."""

    def __init__(self):
        self.index = {"": 0}
        self.strings = [""]

    def add(self, text):
        found = self.index.get(text)
        if found is None:
            found = len(self.strings)
            self.index[text] = found
            self.strings.append(text)
        return found

    def sections(self, prefix):
        offsets, blob, position = [], bytearray(), 0
        for text in self.strings:
            offsets.append(position)
            encoded = text.encode("utf-8")
            blob += encoded
            position += len(encoded)
        offsets.append(position)
        return [
            (prefix + "O", 4, struct.pack(f"<{len(offsets)}I", *offsets)),
            (prefix + "B", 1, bytes(blob)),
        ]


MASK64 = (1 << 64) - 1


def block_checksum(block):
    """The check of one payload block (Data/FORMAT.md): a multiply-add over its 8-byte words, mixed.

    Cheap enough that a reader can check every block it touches on the way to an answer: a changed word
    always changes the 64-bit sum, which the final mix spreads over the 32 bits kept.
    """
    if len(block) % 8:
        block = bytes(block) + b"\0" * (8 - len(block) % 8)
    h = 0x243F6A8885A308D3
    for (word,) in struct.iter_unpack("<Q", block):
        h = ((h + word) * 0x9E3779B97F4A7C15) & MASK64
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & MASK64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & MASK64
    h ^= h >> 33
    return h & 0xFFFFFFFF


def write_container(path, kind, counts, units_per_degree, attributes_per_feature, sections):
    """Write header, section table, block checksums and 8-byte-aligned sections; return the bytes written.

    counts: up to three u32 (meaning depends on kind); sections: list of (tag, item_size, bytes).
    """
    table_end = HEADER_SIZE + SECTION_ENTRY_SIZE * len(sections)
    # The payload's length does not depend on where it starts, as long as that is 8-byte aligned.
    payload = bytearray()
    placed = []
    for tag, item_size, body in sections:
        if len(body) % item_size:
            raise ValueError(f"section {tag}: {len(body)} bytes is not a multiple of {item_size}")
        placed.append((tag, item_size, len(payload), len(body)))
        payload += body
        payload += b"\0" * ((-len(body)) % 8)
    block_count = (len(payload) + BLOCK_SIZE - 1) // BLOCK_SIZE
    block_table = b"".join(
        struct.pack("<I", block_checksum(payload[start : start + BLOCK_SIZE]))
        for start in range(0, len(payload), BLOCK_SIZE)
    )
    block_table += b"\0" * ((-len(block_table)) % 8)
    payload_start = table_end + len(block_table)
    size = payload_start + len(payload)
    entries = [
        struct.pack("<4sIQQ", tag.encode("ascii"), item_size, payload_start + start, length)
        for tag, item_size, start, length in placed
    ]
    counts = list(counts) + [0] * (3 - len(counts))
    header = bytearray(
        struct.pack(
            "<8sI4sIIQIIIIIIII",
            MAGIC,
            FORMAT_VERSION,
            kind.encode("ascii"),
            len(sections),
            0,  # header checksum, filled below
            size,
            counts[0],
            counts[1],
            counts[2],
            units_per_degree,
            zlib.crc32(payload),
            attributes_per_feature,
            BLOCK_SIZE,
            block_count,
        )
    )
    assert len(header) == HEADER_SIZE
    table = b"".join(entries)
    header_crc = zlib.crc32(bytes(header) + table + block_table)
    struct.pack_into("<I", header, 20, header_crc)
    data = bytes(header) + table + block_table + bytes(payload)
    assert len(data) == size
    with open(path, "wb") as handle:
        handle.write(data)
    return data


def zigzag_varint(value, out):
    """Append a signed integer as a zigzag LEB128 varint."""
    value = (value << 1) ^ (value >> 63)
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def ring_grid_section(boxes, units):
    """The RGRD section (Data/FORMAT.md): which rings' boxes may hold a point, cell by cell.

    boxes: (min lat, min lon, max lat, max lon) of every ring in fixed-point units, in ring order.
    """
    cell = RING_GRID_DEGREES * units
    rows, columns = 180 // RING_GRID_DEGREES, 360 // RING_GRID_DEGREES

    def row(latitude):
        return min(rows - 1, max(0, (latitude + 90 * units) // cell))

    def column(longitude):
        return min(columns - 1, max(0, (longitude + 180 * units) // cell))

    def step(value, start):
        return min(RING_GRID_STEPS - 1, max(0, (value - start) * RING_GRID_STEPS // cell))

    cells = [[] for _ in range(rows * columns)]
    wide = []
    for ring, (min_lat, min_lon, max_lat, max_lon) in enumerate(boxes):
        first_row, last_row = row(min_lat), row(max_lat)
        first_column, last_column = column(min_lon), column(max_lon)
        if (last_row - first_row + 1) * (last_column - first_column + 1) > RING_GRID_WIDE:
            wide.append((ring, min_lat, min_lon, max_lat, max_lon))
            continue
        for r in range(first_row, last_row + 1):
            south = r * cell - 90 * units
            for c in range(first_column, last_column + 1):
                west = c * cell - 180 * units
                steps = (
                    step(min_lat, south)
                    | step(min_lon, west) << 8
                    | step(max_lat, south) << 16
                    | step(max_lon, west) << 24
                )
                cells[r * columns + c].append((ring, steps))
    words = [cell, rows, columns, len(wide)]
    position = 0
    for entries in cells:
        words.append(position)
        position += len(entries)
    words.append(position)
    body = struct.pack(f"<{len(words)}I", *words)
    body += b"".join(struct.pack("<Iiiii", *record) for record in wide)
    body += b"".join(struct.pack("<II", ring, steps) for entries in cells for ring, steps in entries)
    return ("RGRD", 4, body)


def write_polygon_layer(path, features, attribute_names, meta, units):
    """Write a polygon layer (Data/FORMAT.md, kind POLY).

    features: list of (attributes: list[str | None], level: int, rings: list[list[(lat, lon)]]) in degrees.
    A feature's interior is decided by the even-odd rule across all its rings.
    """
    strings = StringPool()
    feature_records, attribute_indices = bytearray(), []
    ring_records, chunk_records, stream = bytearray(), bytearray(), bytearray()
    ring_boxes = []
    ring_count = chunk_count = vertex_count = 0
    for feature_index, (attributes, level, rings) in enumerate(features):
        if len(attributes) != len(attribute_names):
            raise ValueError(f"feature {feature_index}: {len(attributes)} attributes")
        attribute_indices.extend(strings.add(value) if value is not None else NO_INDEX for value in attributes)
        first_ring, kept = ring_count, 0
        for ring in rings:
            points = []
            for lat, lon in ring:
                point = (fixed(lat, units), fixed(lon, units))
                if not points or points[-1] != point:
                    points.append(point)
            if len(points) > 1 and points[0] == points[-1]:
                points.pop()
            if len(points) < 3:
                continue
            points.append(points[0])  # stored closed: every edge lies inside one chunk
            ring_offset = len(stream)
            first_chunk = NO_INDEX if len(points) <= CHUNK_EDGES + 1 else chunk_count
            for start in range(0, len(points) - 1, CHUNK_EDGES):
                chunk = points[start : start + CHUNK_EDGES + 1]
                if first_chunk != NO_INDEX:
                    lats = [p[0] for p in chunk]
                    lons = [p[1] for p in chunk]
                    chunk_records += struct.pack("<iiiiII", min(lats), min(lons), max(lats), max(lons), len(stream), len(chunk))
                    chunk_count += 1
                previous = (0, 0)
                for point in chunk:
                    zigzag_varint(point[0] - previous[0], stream)
                    zigzag_varint(point[1] - previous[1], stream)
                    previous = point
            lats = [p[0] for p in points]
            lons = [p[1] for p in points]
            ring_boxes.append((min(lats), min(lons), max(lats), max(lons)))
            ring_records += struct.pack(
                "<iiiiIIII", min(lats), min(lons), max(lats), max(lons), ring_offset, len(points), first_chunk, feature_index
            )
            ring_count += 1
            kept += 1
            vertex_count += len(points)
        feature_records += struct.pack("<IIi", first_ring, kept, level)
    meta_text = "".join(f"{key}={value}\n" for key, value in meta) + "attributes=" + ",".join(attribute_names) + "\n"
    sections = [
        ("META", 1, meta_text.encode("utf-8")),
        ("FEAT", 12, bytes(feature_records)),
        ("FATR", 4, struct.pack(f"<{len(attribute_indices)}I", *attribute_indices)),
        ("RING", 32, bytes(ring_records)),
        ("CHNK", 24, bytes(chunk_records)),
        ("VSTR", 1, bytes(stream)),
        ring_grid_section(ring_boxes, units),
    ] + strings.sections("STR")
    counts = (len(features), ring_count, vertex_count)
    return write_container(path, "POLY", counts, units, len(attribute_names), sections)
