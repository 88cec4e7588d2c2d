"""Tunnel against the offline reverse geocoders people reach for, in one run, on one machine, side by side.

Usage: python bench.py --tunnel BINARY --bench-binary TUNNEL_BENCH [--rows N] [--runs N] [--cold-runs N]
                       [--work DIR] [--out FILE]

1. Cold start: `tunnel where 56 8.5` against a Python process that imports reverse_geocoder and answers one
   query; median wall time, peak memory, ratio.
2. Nearest place for N points uniform on the sphere (seed 42), whole process: `tunnel batch --fields
   nearestPlace`, reverse_geocoder 1.5.1 (mode=1) and reverse_geocode 1.6.6; rows/s, peak memory, and how often
   each one's answer is a true nearest place of its own place list (brute force on the first 10,000 points).
3. Every field of the placemark on the same points, whole process, on one core and on all cores.
4. `tunnel pairs --within 10` over all places, one frame of `tunnel play` at 200×60 cells, and PROJ through
   Tunnel against PROJ called directly (from tunnel-bench).
5. The floor (`tunnel batch --fields none`: read, check and write back every row, no field), each single field
   (`tunnel batch --fields X`, with its time above the floor) and every field on the same points, whole process, against the
   peers that answer one thing: tzfpy 2.1.1 (`get_tz` point by point from a Python loop), timezonefinder
   (`timezone_at` point by point, with and without `in_memory=True`), global-land-mask 1.0.0 (`is_land` on numpy
   arrays) and reverse_geocoder at its leanest (read the points, `search` with mode=1 and mode=2, take the names,
   write only their count). The ratios issue 28 targets, met or not; each single field's columns against the
   whole placemark's; and agreement of Tunnel's time zone and land with the peers', every disagreement given a
   cause checked from the data (a link, overlapping source zones, a zone border within 55 m / 550 m / 5.5 km by
   the peer's own answers around the point, Tunnel's distance to land, outlines that differ between the peers'
   sources; a lake, Antarctica, a coast by Tunnel's distance to land or the mask's own cells). The outputs
   compared are the last timed round's.
6. The floor and the time zone alone on the same points in other input formats: CSV as R's write.csv writes a
   table (row names and header quoted) and JSON Lines, against plain CSV; and the floor, the nearest place and
   every field written as Parquet (`--format parquet`) beside the same written as CSV.

Each round runs every command once, in turn, so that a noisy machine slows them alike. The report is Markdown.
A child's peak memory cannot read below this process's own at the time it starts the child (Linux counts the
parent's pages it was forked with), so every command is timed before numpy is loaded for the brute force, and the
report gives that floor.
"""

import argparse
import csv
import itertools
import os
import platform
import statistics
import struct
import subprocess
import sys
import resource
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "batch"))
import bench as batch_bench  # noqa: E402  (the batch benchmark's point generator and process timer)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SUBSET = 10_000


def timed_rounds(commands, runs, work, label, outputs=None):
    """Runs each (name, command, cold) once per round, in turn; returns {name: [(seconds, MiB), ...]}.

    A command named in `outputs` writes to the file given there (the last round's output is kept), any other to
    one scratch file."""
    results = {name: [] for name, _, _ in commands}
    for round_number in range(runs):
        for name, command, cold in commands:
            output = (outputs or {}).get(name, os.path.join(work, "out.txt"))
            seconds, memory = batch_bench.run(command, output, cold)
            results[name].append((seconds, memory))
            print("%s round %d  %-58s %8.3f s  %6.0f MiB" % (label, round_number + 1, name, seconds, memory),
                  file=sys.stderr)
    return results


def median_seconds(samples):
    return statistics.median(s for s, _ in samples)


def peak(samples):
    return max(m for _, m in samples)


def unit_vectors(latitudes, longitudes):
    import numpy

    phi = numpy.radians(numpy.asarray(latitudes, dtype=numpy.float64))
    lam = numpy.radians(numpy.asarray(longitudes, dtype=numpy.float64))
    return numpy.stack([numpy.cos(phi) * numpy.cos(lam), numpy.cos(phi) * numpy.sin(lam), numpy.sin(phi)], axis=1)


def nearest_angles(queries, places):
    """The great-circle angle from each query to its nearest place (brute force, in chunks)."""
    import numpy

    best = numpy.empty(len(queries))
    for start in range(0, len(queries), 500):
        dots = queries[start:start + 500] @ places.T
        best[start:start + 500] = numpy.arccos(numpy.clip(dots.max(axis=1), -1, 1))
    return best


def agreement(points, answers, places):
    """The share of points whose answered place is as near as the nearest of `places` (ties count as right).

    `answers` holds the answered places' (lat, lon); distances are compared on the sphere, within 1e-9 rad,
    so that duplicate places and the rounding of printed coordinates do not count as disagreement.
    """
    import numpy

    queries = unit_vectors(points[:, 0], points[:, 1])
    answered = unit_vectors(answers[:, 0], answers[:, 1])
    answered_angles = numpy.arccos(numpy.clip((queries * answered).sum(axis=1), -1, 1))
    best = nearest_angles(queries, unit_vectors(places[:, 0], places[:, 1]))
    return float(numpy.mean(answered_angles <= best + 1e-9))


def tunnel_places(data):
    """Every place of Tunnel's places.tunnel (Data/FORMAT.md: section PLLD, i32 latitude and longitude, 1e-7°)."""
    import numpy

    with open(os.path.join(data, "places.tunnel"), "rb") as handle:
        blob = handle.read()
    sections = struct.unpack_from("<I", blob, 16)[0]
    for index in range(sections):
        tag, _, offset, length = struct.unpack_from("<4sIQQ", blob, 64 + 24 * index)
        if tag == b"PLLD":
            values = numpy.frombuffer(blob, dtype="<i4", count=length // 4, offset=offset).reshape(-1, 2)
            return values.astype(numpy.float64) / 1e7
    sys.exit("places.tunnel has no PLLD section")


def peer_places(module, filename, lat_key, lon_key):
    """The place list a peer searches: its bundled file."""
    import gzip
    import importlib
    import json

    import numpy

    folder = os.path.dirname(importlib.import_module(module).__file__)
    path = os.path.join(folder, filename)
    if filename.endswith(".gz"):
        with gzip.open(path) as handle:
            rows = json.loads(handle.read())
        return numpy.array([(row[lat_key], row[lon_key]) for row in rows], dtype=numpy.float64)
    with open(path, newline="", encoding="utf-8") as handle:
        return numpy.array([(float(row[lat_key]), float(row[lon_key])) for row in csv.DictReader(handle)])


def answered(path, lat_column, lon_column):
    import numpy

    with open(path, newline="", encoding="utf-8") as handle:
        return numpy.array([(float(row[lat_column]), float(row[lon_column])) for row in csv.DictReader(handle)])


def run_once(command, output):
    with open(output, "wb") as sink:
        finished = subprocess.run(command, stdout=sink, stderr=subprocess.PIPE)
    if finished.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(command), finished.returncode, finished.stderr.decode()))


# Section 5: single fields, and the peers that answer one thing.
FIELDS = ("land", "country", "region", "subregion", "sea", "timeZone", "nearestLand", "nearestPlace", "boundaryKm")
# The pass-through: every row read, checked and written back with no field, the floor every field stands on.
FLOOR_NAME = "tunnel batch --fields none (the floor)"
FLOOR_TARGET = 2.0  # each single field within 2× of the floor
TZFPY_TARGET_FIELDS = ("land", "country", "region", "sea", "timeZone")  # each at least 5× tzfpy's time zones
TZFPY_TARGET, EVERY_FIELD_TARGET, NEAREST_PLACE_TARGET = 5.0, 2.0, 10.0
EXAMPLES = 2


def package_version(name):
    from importlib import metadata

    return metadata.version(name)


def read_answers(path):
    """A peer's answers, one a line, in the points' order."""
    with open(path, encoding="utf-8") as handle:
        return handle.read().splitlines()


def read_columns(path, names):
    """The named columns of a CSV, as lists of strings."""
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        indices = [header.index(name) for name in names]
        columns = [[] for _ in names]
        appends = [column.append for column in columns]
        for row in reader:
            for append, index in zip(appends, indices):
                append(row[index])
    return dict(zip(names, columns))


def field_subsets_agree(every_path, field_paths):
    """For each single-field output, the number of rows whose columns differ from the same-named columns of the
    every-field output (None when the row counts differ)."""
    handles = [open(every_path, newline="", encoding="utf-8")] + [
        open(path, newline="", encoding="utf-8") for path in field_paths.values()]
    try:
        readers = [csv.reader(handle) for handle in handles]
        headers = [next(reader) for reader in readers]
        picks = [[headers[0].index(name) for name in header] for header in headers[1:]]
        differing = [0] * len(field_paths)
        rows = 0
        for row_set in itertools.zip_longest(*readers):
            if any(row is None for row in row_set):
                return {field: None for field in field_paths}
            rows += 1
            every = row_set[0]
            for index, (row, pick) in enumerate(zip(row_set[1:], picks)):
                if row != [every[column] for column in pick]:
                    differing[index] += 1
        return dict(zip(field_paths, differing))
    finally:
        for handle in handles:
            handle.close()


def zone_links():
    """IANA links to their zones ({link: zone}, chains followed) from the system's tzdata.zi, or None."""
    links = {}
    for path in ("/usr/share/zoneinfo/tzdata.zi", "/usr/share/zone-info/tzdata.zi"):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    parts = line.split()
                    if len(parts) == 3 and parts[0] == "L":
                        links[parts[2]] = parts[1]
            version = "unknown"
            with open(path, encoding="utf-8") as handle:
                first = handle.readline().split()
                if first[:2] == ["#", "version"]:
                    version = first[2]
            return links, version
    return None, None


def resolve(zone, links):
    seen = set()
    while links and zone in links and zone not in seen:
        seen.add(zone)
        zone = links[zone]
    return zone


def is_ocean_band(zone):
    return zone.startswith("Etc/GMT") or zone in ("Etc/UTC", "UTC")


def ring(lat, lon, radius):
    """Eight points `radius` degrees around (lat, lon), longitude widened with latitude, latitudes kept in range."""
    import math

    widen = 1 / max(math.cos(math.radians(lat)), 0.01)
    for dlat, dlon in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7071, 0.7071), (0.7071, -0.7071), (-0.7071, 0.7071),
                       (-0.7071, -0.7071)):
        yield max(-90.0, min(90.0, lat + dlat * radius)), (lon + dlon * radius * widen + 540) % 360 - 180


BORDER_RADII = ((0.0005, "55 m"), (0.005, "550 m"), (0.05, "5.5 km"))


def zone_cause(lat, lon, ours, theirs, land_km, links, overlapping, answer, source):
    """Why Tunnel's zone and a peer's differ at one point: the first cause that the data shows.

    `overlapping(lon, lat)` gives every zone of tzfpy's (Tunnel's source) that covers a point, `answer(lon, lat)`
    the peer's zone, `source(lon, lat)` tzfpy's (None when tzfpy is the peer)."""
    if links is not None and resolve(ours, links) == resolve(theirs, links):
        return "a link and its zone: one zone under two names (tzdata's backward links)"
    here = overlapping(lon, lat)
    if ours in here and theirs in here:
        return "the source's zones overlap here: tzfpy's get_tzs gives both, each tool picks one"
    if is_ocean_band(ours) and is_ocean_band(theirs):
        kind = "two ocean bands"
    elif is_ocean_band(ours):
        kind = "Tunnel an ocean band, the peer a land zone"
    elif is_ocean_band(theirs):
        kind = "Tunnel a land zone, the peer an ocean band"
    else:
        kind = "two land zones"
    for radius, label in BORDER_RADII:
        if any(answer(ring_lon, ring_lat) == ours for ring_lat, ring_lon in ring(lat, lon, radius)):
            return "%s, a border of the peer's within %s (it gives Tunnel's zone there)" % (kind, label)
    where = ""
    if kind != "two land zones":
        if land_km == 0:
            where = ", on Tunnel's land"
        elif land_km <= 22.224:
            where = ", within 12 nautical miles (22.2 km) of Tunnel's nearest land"
        elif land_km <= 100:
            where = ", 22–100 km from Tunnel's nearest land"
        else:
            where = ", over 100 km from Tunnel's nearest land"
    if source is not None and source(lon, lat) == ours:
        return "%s, no border of the peer's within 5.5 km%s: the two sources' outlines differ (tzfpy's, which " \
            "Tunnel's are, gives Tunnel's zone)" % (kind, where)
    return "%s, no border of the peer's within 5.5 km%s" % (kind, where)


def arctic(lat):
    return "north of 66.5° N" if lat > 66.5 else "south of 66.5° N"


def land_causes(latitudes, longitudes, ours, theirs, in_lake, lake, land_km):
    """Why Tunnel's land and global-land-mask's is_land differ, one cause a point (indices into the arrays given).

    For Tunnel's water, Tunnel's own distance to land tells a coast from open water; for Tunnel's land (which has
    no such distance), the mask's own cells around the point do: a mix of land and water within two cells
    (about 2 km) is the mask's coast."""
    import numpy
    from global_land_mask import globe

    cell = abs(float(globe._lat[1] - globe._lat[0]))
    lat = numpy.asarray(latitudes)
    lon = numpy.asarray(longitudes)
    land_near = numpy.zeros(len(lat), dtype=bool)
    water_near = numpy.zeros(len(lat), dtype=bool)
    for dlat in range(-2, 3):
        for dlon in range(-2, 3):
            around = globe.is_land(numpy.clip(lat + dlat * cell, -90, 90), (lon + dlon * cell + 540) % 360 - 180)
            land_near |= around
            water_near |= ~around
    mixed = land_near & water_near
    causes = []
    for index in range(len(lat)):
        if ours[index] == "false":
            if in_lake[index] == "true":
                causes.append("Tunnel: water, in a lake%s; the mask: land (it counts inland water as land)" % (
                    "" if lake[index] else " without a name in Tunnel's data"))
            elif lat[index] < -60 and land_km[index] > 5:
                causes.append("Antarctica, over 5 km out from Tunnel's ice front (Tunnel: sea; the mask: land)")
            elif land_km[index] <= 2:
                causes.append("Tunnel: sea, within 2 km of its coast; the mask: land (its cells are about 1 km)")
            else:
                causes.append("Tunnel: sea, %s from its coast, %s; the mask: land" % (
                    "2–10 km" if land_km[index] <= 10 else "over 10 km", arctic(lat[index])))
        else:
            if lat[index] < -60:
                causes.append("Antarctica: Tunnel land (inside GSHHG's ice front, ice shelves included), the mask "
                              "water%s" % (", its coast within 2 km" if mixed[index]
                                           else " with no land within 2 km: an ice shelf"))
            elif mixed[index]:
                causes.append("Tunnel: land; the mask: water, its coast within 2 cells (about 2 km)")
            else:
                causes.append("Tunnel: land; the mask: water all around (2 km), %s" % arctic(lat[index]))
    return causes


def cause_table(say, rows):
    """rows: (cause, (ours, theirs), (lat, lon)) per disagreement; prints counts, pairs and examples per cause."""
    groups = {}
    for cause, pair, point in rows:
        group = groups.setdefault(cause, {"count": 0, "pairs": {}, "examples": []})
        group["count"] += 1
        group["pairs"][pair] = group["pairs"].get(pair, 0) + 1
        if len(group["examples"]) < EXAMPLES:
            group["examples"].append((point, pair))
    say("| cause (checked from the data) | points | Tunnel → peer, most common first "
        "| examples (lat, lon: Tunnel, peer) |")
    say("|---|---:|---|---|")
    for cause, group in sorted(groups.items(), key=lambda item: -item[1]["count"]):
        pairs = sorted(group["pairs"].items(), key=lambda item: -item[1])
        shown = ", ".join("%s → %s %s" % (ours or "(none)", theirs or "(none)", format(count, ","))
                          for (ours, theirs), count in pairs[:4])
        if len(pairs) > 4:
            shown += ", %d more pairs" % (len(pairs) - 4)
        examples = "; ".join("%s, %s: %s, %s" % (lat, lon, ours or "(none)", theirs or "(none)")
                             for (lat, lon), (ours, theirs) in group["examples"])
        say("| %s | %s | %s | %s |" % (cause, format(group["count"], ","), shown, examples))


def tunnel_zone_release(data):
    """The timezone-boundary-builder release of Tunnel's time zones, as Data/README.md names it."""
    import re

    try:
        with open(os.path.join(data, "README.md"), encoding="utf-8") as handle:
            found = re.search(r"timezone-boundary-builder \(tzdata (\w+)", handle.read())
    except OSError:
        found = None
    return found.group(1) if found else "(release not found in Data/README.md)"


def single_fields(say, data, rows, single, one_thing, results, kept, every_name, tzfpy_name, tzf_name,
                  tzf_memory_name, mask_name, lean_names, versions):
    """Section 5: the timings of single fields and of the one-thing peers, the issue's targets, the field subsets
    against the whole placemark, and agreement with each peer, every disagreement given a cause."""
    tzfpy_time = median_seconds(results[tzfpy_name])
    lean_name = min(lean_names, key=lambda name: median_seconds(results[name]))
    lean_time = median_seconds(results[lean_name])
    say()
    say("## 5. One field at a time, against the peers that answer one thing, same points")
    say()
    say("Tunnel with a single `--fields` and with every field, writing its CSV; tzfpy and timezonefinder answering "
        "the time zones point by point from a Python loop, global-land-mask's `is_land` on numpy arrays, each "
        "writing one answer a line; reverse_geocoder at its leanest: read the points, `search`, take each result's "
        "name, write only their count (no CSV). Every command a whole process, reading the same CSV; rounds "
        "interleaved.")
    say()
    floor = median_seconds(results[FLOOR_NAME])
    say("| command | median wall | rows/s | peak memory | above the floor | × the floor | vs tzfpy | "
        "vs lean reverse_geocoder (%s) |" % (lean_name.rsplit(", ", 1)[1]))
    say("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, _, _ in single + one_thing:
        seconds = median_seconds(results[name])
        above = ("%.2f s" % (seconds - floor), "%.2f×" % (seconds / floor)) if name.startswith("tunnel") else ("", "")
        say("| %s | %.2f s | %s | %.0f MiB | %s | %s | %.2f× | %.2f× |" % (
            name, seconds, format(int(rows / seconds), ","), peak(results[name]), above[0], above[1],
            tzfpy_time / seconds, lean_time / seconds))
    say()
    say("The floor is `tunnel batch --fields none`: every row read, its coordinates checked, and written back with "
        "no field. What a field costs is its time above the floor.")
    faster_lean = "mode=2 (a process per core)" if lean_name == lean_names[1] else "mode=1 (one process)"
    say()
    say("reverse_geocoder's mode=1 is its single-process search, mode=2 splits the search over every core; here "
        "the faster lean run was %s, and the targets use it. timezonefinder's docs show `in_memory=True` as the way "
        "for speed: %.2f s against %.2f s without it." % (
            faster_lean, median_seconds(results[tzf_memory_name]), median_seconds(results[tzf_name])))
    say()
    say("Targets (ratios of medians in this run):")
    say()

    def target(label, ratio, goal):
        say("- %s: %.2f× (target ≥ %g×) — %s" % (label, ratio, goal, "met" if ratio >= goal else "not met"))

    for field in TZFPY_TARGET_FIELDS:
        target("`--fields %s` against tzfpy's time zones" % field,
               tzfpy_time / median_seconds(results["tunnel batch --fields %s" % field]), TZFPY_TARGET)
    target("every field against the lean reverse_geocoder", lean_time / median_seconds(results[every_name]),
           EVERY_FIELD_TARGET)
    target("`--fields nearestPlace` against the lean reverse_geocoder",
           lean_time / median_seconds(results["tunnel batch --fields nearestPlace"]), NEAREST_PLACE_TARGET)
    for field in FIELDS:
        ratio = median_seconds(results["tunnel batch --fields %s" % field]) / floor
        say("- `--fields %s` within %g× of the floor: %.2f× — %s" % (
            field, FLOOR_TARGET, ratio, "met" if ratio <= FLOOR_TARGET else "not met"))

    every_path = kept[every_name]
    differing = field_subsets_agree(every_path, {field: kept["tunnel batch --fields %s" % field] for field in FIELDS})
    say()
    say("Field subsets against the whole placemark, row by row (each single field's columns, the point's own "
        "included, against the every-field run's same columns): %s." % ", ".join(
            "%s %s" % (field, "identical" if count == 0 else "row counts differ" if count is None
                       else "%s rows differ" % format(count, ","))
            for field, count in differing.items()))

    # Agreement.
    tunnel = read_columns(every_path, ["lat", "lon", "land", "sea", "lake", "in_lake", "nearest_land_km",
                                       "time_zone"])
    count = len(tunnel["lat"])
    tzfpy_zones = read_answers(kept[tzfpy_name])
    tzf_zones = read_answers(kept[tzf_name])
    tzf_memory_zones = read_answers(kept[tzf_memory_name])
    mask = read_answers(kept[mask_name])
    for name, answers in ((tzfpy_name, tzfpy_zones), (tzf_name, tzf_zones), (tzf_memory_name, tzf_memory_zones),
                          (mask_name, mask)):
        if len(answers) != count:
            sys.exit("%s gave %d answers for %d points" % (name, len(answers), count))
    links, tzdata_version = zone_links()
    ours = tunnel["time_zone"]

    def percent(part):
        return "%s (%.4f %%)" % (format(part, ","), 100 * part / count)

    say()
    say("Agreement on all %s points (Tunnel's every-field run against each peer's answers):" % format(count, ","))
    say()
    say("| comparison | equal | equal after resolving links | differ |")
    say("|---|---:|---:|---:|")
    zone_disagreements = {}
    for label, answers in (("time zone: Tunnel against tzfpy %s" % versions["tzfpy"], tzfpy_zones),
                           ("time zone: Tunnel against timezonefinder %s" % versions["timezonefinder"], tzf_zones)):
        different = [index for index in range(count) if ours[index] != answers[index]]
        after = sum(1 for index in different if links is None or resolve(ours[index], links) != resolve(
            answers[index], links))
        zone_disagreements[label] = different
        say("| %s | %s | %s | %s |" % (label, percent(count - len(different)),
                                       "n/a" if links is None else percent(count - after), format(len(different), ",")))
    land = tunnel["land"]
    land_different = [index for index in range(count) if land[index] != mask[index]]
    say("| land: Tunnel's `land` against global-land-mask %s's `is_land` | %s | — | %s |" % (
        versions["global-land-mask"], percent(count - len(land_different)), format(len(land_different), ",")))
    say()
    import tzfpy
    from timezonefinder import TimezoneFinder

    finder = TimezoneFinder(in_memory=True)
    say("Zone outlines: Tunnel's are tzfpy's (Data/README.md), from timezone-boundary-builder %s; tzfpy's %s; "
        "timezonefinder's %s (timezonefinder-data %s). timezonefinder's answers with and without "
        "`in_memory=True`: %s. Links are tzdata's own (%s)." % (
            tunnel_zone_release(data), tzfpy.data_version(), getattr(finder, "data_version", "unknown"),
            package_version("timezonefinder-data"),
            "identical" if tzf_zones == tzf_memory_zones else "%s differ" % format(
                sum(1 for a, b in zip(tzf_zones, tzf_memory_zones) if a != b), ","),
            "tzdata %s's tzdata.zi, %d links" % (tzdata_version, len(links)) if links is not None
            else "no tzdata.zi on this system, so none resolved"))
    answerers = {"tzfpy": tzfpy.get_tz,
                 "timezonefinder": lambda lon, lat: finder.timezone_at(lng=lon, lat=lat) or ""}

    def land_km(index):
        if land[index] == "true":
            return 0.0
        return float(tunnel["nearest_land_km"][index]) if tunnel["nearest_land_km"][index] else float("inf")

    for label, different in zone_disagreements.items():
        peer = "tzfpy" if "tzfpy" in label else "timezonefinder"
        answers = tzfpy_zones if peer == "tzfpy" else tzf_zones
        say()
        say("Why the %s differ (%s points):" % (label.replace("time zone: ", "time zones of "),
                                                 format(len(different), ",")))
        say()
        rows_out = []
        for index in different:
            lat, lon = float(tunnel["lat"][index]), float(tunnel["lon"][index])
            cause = zone_cause(lat, lon, ours[index], answers[index], land_km(index), links, tzfpy.get_tzs,
                               answerers[peer], None if peer == "tzfpy" else tzfpy.get_tz)
            rows_out.append((cause, (ours[index], answers[index]), (tunnel["lat"][index], tunnel["lon"][index])))
        cause_table(say, rows_out)

    say()
    say("Why Tunnel's land and global-land-mask's differ (%s points):" % format(len(land_different), ","))
    say()
    causes = land_causes(
        [float(tunnel["lat"][index]) for index in land_different],
        [float(tunnel["lon"][index]) for index in land_different],
        [land[index] for index in land_different], [mask[index] for index in land_different],
        [tunnel["in_lake"][index] for index in land_different], [tunnel["lake"][index] for index in land_different],
        [land_km(index) for index in land_different])
    cause_table(say, [(cause, (land[index], mask[index]), (tunnel["lat"][index], tunnel["lon"][index]))
                      for cause, index in zip(causes, land_different)])


def input_formats(source):
    """The points of `source` (id,lat,lon) as R's write.csv writes a table (row names and the header quoted) and
    as JSON Lines; returns [(label, path)] with the CSV itself first."""
    quoted = source.replace(".csv", "-quoted.csv")
    json_lines = source.replace(".csv", ".jsonl")
    with open(source) as rows, open(quoted, "w") as r_table, open(json_lines, "w") as objects:
        next(rows)
        r_table.write('"","id","lat","lon"\n')
        for number, row in enumerate(rows, 1):
            identifier, latitude, longitude = row.rstrip("\n").split(",")
            r_table.write('"%d",%s,%s,%s\n' % (number, identifier, latitude, longitude))
            objects.write('{"id":%s,"lat":%s,"lon":%s}\n' % (identifier, latitude, longitude))
    return [("CSV", source), ("CSV as R's write.csv quotes it", quoted), ("JSON Lines", json_lines)]


def time_input_formats(tunnel, source, runs, work):
    """Section 6, timed: the floor and one field on the same points in each input format."""
    commands = [("%s, --fields %s" % (label, field), [tunnel, "batch", "--fields", field, path], False)
                for label, path in input_formats(source) for field in ("none", "timeZone")]
    # The same CSV written as Parquet, beside it written as CSV.
    for field in ("none", "nearestPlace", "every field"):
        chosen = [] if field == "every field" else ["--fields", field]
        for written in ("CSV", "Parquet"):
            commands.append(("CSV in, %s out, %s" % (written, "every field" if not chosen else "--fields " + field),
                             [tunnel, "batch"] + chosen + ["--format", written.lower(), source], False))
    return commands, timed_rounds(commands, runs, work, "formats")


def report_input_formats(say, commands, results, rows):
    """Section 6, reported."""
    plain = median_seconds(results[commands[0][0]])
    say()
    say("## 6. The floor by input and output format")
    say()
    say("The same points as plain CSV, as R's `write.csv` writes them (every row's first field quoted) and as JSON "
        "Lines (`{\"id\":0,\"lat\":…,\"lon\":…}`), each written back as it came in; then the CSV written as "
        "Parquet (`--format parquet`: the CSV's columns typed, plain and uncompressed) beside it written as CSV.")
    say()
    say("| input, fields | median wall | rows/s | peak memory | × the CSV floor |")
    say("|---|---:|---:|---:|---:|")
    for name, _, _ in commands:
        seconds = median_seconds(results[name])
        say("| %s | %.3f s | %s | %.0f MiB | %.2f× |" % (
            name, seconds, format(int(rows / seconds), ","), peak(results[name]), seconds / plain))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tunnel", required=True, help="the installed tunnel binary")
    parser.add_argument("--bench-binary", required=True, help="the release tunnel-bench binary")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data"))
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold-runs", type=int, default=20)
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "bench"))
    parser.add_argument("--out", default=None)
    arguments = parser.parse_args()
    work = arguments.work
    os.makedirs(work, exist_ok=True)
    python = sys.executable
    tunnel = arguments.tunnel
    source = os.path.join(work, "points-%d.csv" % arguments.rows)
    batch_bench.points(source, arguments.rows)
    subset = os.path.join(work, "points-%d-first-%d.csv" % (arguments.rows, SUBSET))
    with open(source) as whole, open(subset, "w") as part:
        for index, line in enumerate(whole):
            if index > SUBSET:
                break
            part.write(line)
    rg_batch = os.path.join(ROOT, "Benchmarks", "batch", "reverse_geocoder_batch.py")
    rgc_batch = os.path.join(HERE, "reverse_geocode_batch.py")
    lines = []

    def say(text=""):
        lines.append(text)
        print(text)

    model = "unknown processor"
    try:
        with open("/proc/cpuinfo") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    say("# Tunnel against its peers")
    say()
    say("%s; %s, %d cores (%s), Linux %s; Python %s." % (
        time.strftime("%Y-%m-%d"), platform.machine(), os.cpu_count(), model, platform.release(),
        platform.python_version()))
    say("Measured by `Scripts/bench --peers --rows %d --runs %d --cold-runs %d`: every command a whole process, "
        "rounds interleaved, medians of wall time, the largest peak resident memory." % (
            arguments.rows, arguments.runs, arguments.cold_runs))

    # 1. Cold start.
    cold = [
        ("tunnel where 56 8.5 (installed)", [tunnel, "where", "56", "8.5"], False),
        ("reverse_geocoder 1.5.1, one query", [python, "-c",
         "import reverse_geocoder; reverse_geocoder.search([(56, 8.5)], mode=1, verbose=False)"], False),
    ]
    results = timed_rounds(cold, arguments.cold_runs, work, "cold")
    tunnel_cold = median_seconds(results[cold[0][0]])
    say()
    say("## 1. One query from a cold process")
    say()
    say("| command | median wall | peak memory | vs tunnel |")
    say("|---|---:|---:|---:|")
    for name, _, _ in cold:
        seconds = median_seconds(results[name])
        say("| %s | %.1f ms | %.0f MiB | %.0f× |" % (name, 1000 * seconds, peak(results[name]), seconds / tunnel_cold))

    # 2. Nearest place.
    nearest = [
        ("tunnel batch --fields nearestPlace", [tunnel, "batch", "--fields", "nearestPlace", source], False),
        ("reverse_geocoder 1.5.1, mode=1", [python, rg_batch, source, "1"], False),
        ("reverse_geocode 1.6.6", [python, rgc_batch, source], False),
    ]
    nearest_results = timed_rounds(nearest, arguments.runs, work, "nearest")
    peer_time = median_seconds(nearest_results[nearest[1][0]])
    deferred = []  # section 3 is timed before the right answers of section 2 are counted
    # 3. Every field.
    full = [
        ("tunnel batch (every field), all cores", [tunnel, "batch", source], False),
        ("tunnel batch (every field), --threads 1", [tunnel, "batch", "--threads", "1", source], False),
    ]
    results = timed_rounds(full, arguments.runs, work, "full")
    deferred.append("")
    deferred.append("## 3. Every field of the placemark, same points")
    deferred.append("")
    deferred.append("| command | median wall | rows/s | peak memory | vs reverse_geocoder's nearest city |")
    deferred.append("|---|---:|---:|---:|---:|")
    for name, _, _ in full:
        seconds = median_seconds(results[name])
        deferred.append("| %s | %.2f s | %s | %.0f MiB | %.1f× |" % (
            name, seconds, format(int(arguments.rows / seconds), ","), peak(results[name]), peer_time / seconds))

    # 5. Single fields, and the peers that answer one thing (timed here, reported after section 4).
    versions = {name: package_version(name) for name in ("tzfpy", "timezonefinder", "global-land-mask")}
    single = [(FLOOR_NAME, [tunnel, "batch", "--fields", "none", source], False)]
    single += [("tunnel batch --fields %s" % field, [tunnel, "batch", "--fields", field, source], False)
               for field in FIELDS]
    every_name = "tunnel batch (every field)"
    single.append((every_name, [tunnel, "batch", source], False))
    tzfpy_name = "tzfpy %s, get_tz point by point" % versions["tzfpy"]
    tzf_name = "timezonefinder %s, timezone_at point by point" % versions["timezonefinder"]
    tzf_memory_name = "timezonefinder %s (in_memory=True), timezone_at point by point" % versions["timezonefinder"]
    mask_name = "global-land-mask %s, is_land on numpy arrays" % versions["global-land-mask"]
    lean_names = ["reverse_geocoder 1.5.1 lean (search and names), mode=%d" % mode for mode in (1, 2)]
    lean = os.path.join(HERE, "reverse_geocoder_lean.py")
    one_thing = [
        (tzfpy_name, [python, os.path.join(HERE, "tzfpy_batch.py"), source], False),
        (tzf_name, [python, os.path.join(HERE, "timezonefinder_batch.py"), source], False),
        (tzf_memory_name, [python, os.path.join(HERE, "timezonefinder_batch.py"), source, "--in-memory"], False),
        (mask_name, [python, os.path.join(HERE, "global_land_mask_batch.py"), source], False),
        (lean_names[0], [python, lean, source, "1"], False),
        (lean_names[1], [python, lean, source, "2"], False),
    ]
    kept = {"tunnel batch --fields %s" % field: os.path.join(work, "single-%s.csv" % field) for field in FIELDS}
    kept[every_name] = os.path.join(work, "single-every-field.csv")
    kept[tzfpy_name] = os.path.join(work, "peer-tzfpy.txt")
    kept[tzf_name] = os.path.join(work, "peer-timezonefinder.txt")
    kept[tzf_memory_name] = os.path.join(work, "peer-timezonefinder-in-memory.txt")
    kept[mask_name] = os.path.join(work, "peer-global-land-mask.txt")
    single_results = timed_rounds(single + one_thing, arguments.runs, work, "single", kept)

    # 6. Input formats (timed here, reported last).
    format_commands, format_results = time_input_formats(tunnel, source, arguments.runs, work)

    # 4. Pairs, a frame, PROJ.
    pairs = [("tunnel pairs --within 10 (all places)", [tunnel, "pairs", "--within", "10", "--format", "csv"], False)]
    results = timed_rounds(pairs, arguments.runs, work, "pairs")
    with open(os.path.join(work, "out.txt")) as handle:
        pair_count = sum(1 for _ in handle) - 1
    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    # Right answers, now that nothing more is timed.
    run_once([tunnel, "batch", "--fields", "nearestPlace", subset], os.path.join(work, "subset-tunnel.csv"))
    run_once([python, rg_batch, subset, "1"], os.path.join(work, "subset-rg.csv"))
    run_once([python, rgc_batch, subset], os.path.join(work, "subset-rgc.csv"))
    import numpy

    points = numpy.genfromtxt(subset, delimiter=",", skip_header=1)[:, 1:3]
    agreements = [
        agreement(points, answered(os.path.join(work, "subset-tunnel.csv"), "nearest_place_latitude",
                                   "nearest_place_longitude"), tunnel_places(arguments.data)),
        agreement(points, answered(os.path.join(work, "subset-rg.csv"), "place_lat", "place_lon"),
                  peer_places("reverse_geocoder", "rg_cities1000.csv", "lat", "lon")),
        agreement(points, answered(os.path.join(work, "subset-rgc.csv"), "place_lat", "place_lon"),
                  peer_places("reverse_geocode", "geocode.gz", "latitude", "longitude")),
    ]
    say()
    say("## 2. The nearest place of %s points uniform on the sphere" % format(arguments.rows, ","))
    say()
    say("Right answers: how often the place given is a nearest one (great circle) of the tool's own place list, "
        "by brute force over the first %s points." % format(SUBSET, ","))
    say()
    say("| command | median wall | rows/s | peak memory | vs reverse_geocoder | right answers |")
    say("|---|---:|---:|---:|---:|---:|")
    for (name, _, _), right in zip(nearest, agreements):
        seconds = median_seconds(nearest_results[name])
        say("| %s | %.2f s | %s | %.0f MiB | %.1f× | %.2f %% |" % (
            name, seconds, format(int(arguments.rows / seconds), ","), peak(nearest_results[name]), peer_time / seconds,
            100 * right))

    for line in deferred:
        say(line)
    say()
    say("## 4. Pairs, a frame of the app, PROJ")
    say()
    say("- `tunnel pairs --within 10` over all 234,908 places: %.2f s median wall, %.0f MiB, %s pairs." % (
        median_seconds(results[pairs[0][0]]), peak(results[pairs[0][0]]), format(pair_count, ",")))
    for flag in ("--map-frame", "--proj"):
        finished = subprocess.run([arguments.bench_binary, flag, arguments.data], capture_output=True, text=True)
        if finished.returncode != 0:
            sys.exit("tunnel-bench %s failed: %s" % (flag, finished.stdout + finished.stderr))
        for line in finished.stdout.strip().splitlines():
            say("- %s" % line)
    single_fields(say, arguments.data, arguments.rows, single, one_thing, single_results, kept, every_name,
                  tzfpy_name, tzf_name, tzf_memory_name, mask_name, lean_names, versions)
    report_input_formats(say, format_commands, format_results, arguments.rows)
    say()
    say("Peak memory cannot read below the benchmark process's own when it started each command: %.0f MiB." % floor)
    if arguments.out:
        with open(arguments.out, "w") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
