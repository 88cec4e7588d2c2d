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

Each round runs every command once, in turn, so that a noisy machine slows them alike. The report is Markdown.
A child's peak memory cannot read below this process's own at the time it starts the child (Linux counts the
parent's pages it was forked with), so every command is timed before numpy is loaded for the brute force, and the
report gives that floor.
"""

import argparse
import csv
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


def timed_rounds(commands, runs, work, label):
    """Runs each (name, command, cold) once per round, in turn; returns {name: [(seconds, MiB), ...]}."""
    results = {name: [] for name, _, _ in commands}
    for round_number in range(runs):
        for name, command, cold in commands:
            seconds, memory = batch_bench.run(command, os.path.join(work, "out.txt"), cold)
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
    say()
    say("Peak memory cannot read below the benchmark process's own when it started each command: %.0f MiB." % floor)
    if arguments.out:
        with open(arguments.out, "w") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
