"""Times `tunnel batch` against reverse_geocoder on the same points, whole process, side by side.

Usage: python bench.py --tunnel PATH [--rows N] [--runs N] [--work DIR]

Each round runs every command once, in turn, so that a noisy machine slows them alike; the report gives
the median wall time, rows per second and the peak resident memory of each.
"""

import argparse
import math
import os
import platform
import random
import statistics
import shutil
import subprocess
import sys
import tempfile
import time


def points(path, rows, seed=42):
    """Writes `rows` points uniform on the sphere (id, lat, lon), the same for the same seed."""
    if os.path.exists(path):
        return
    generator = random.Random(seed)
    with open(path + ".part", "w") as out:
        out.write("id,lat,lon\n")
        for index in range(rows):
            z = generator.uniform(-1, 1)
            longitude = generator.uniform(-180, 180)
            out.write("%d,%.6f,%.6f\n" % (index, math.degrees(math.asin(z)), longitude))
    os.replace(path + ".part", path)


def run(command, output, cold):
    """Wall seconds and peak resident memory (MiB) of one whole process, its output sent to `output`;
    `cold` runs it with an empty cache folder, as on its first run on a machine."""
    environment = dict(os.environ)
    cache = tempfile.mkdtemp() if cold else None
    if cache:
        environment["TUNNEL_CACHE_DIR"] = cache
    with open(output, "wb") as sink:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        error = process.stderr.read().decode()
        process.stderr.close()
    if cache:
        shutil.rmtree(cache)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(command), code, error))
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tunnel", required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=".build/bench")
    arguments = parser.parse_args()
    os.makedirs(arguments.work, exist_ok=True)
    source = os.path.join(arguments.work, "points-%d.csv" % arguments.rows)
    points(source, arguments.rows)
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reverse_geocoder_batch.py")
    nearest = [arguments.tunnel, "batch", "--fields", "nearestPlace", source]
    commands = [
        ("tunnel batch --fields nearestPlace", nearest, False),
        ("tunnel batch --fields nearestPlace, first run (grid built)", nearest, True),
        ("tunnel batch (every field)", [arguments.tunnel, "batch", source], False),
        ("tunnel batch (every field) --antipode", [arguments.tunnel, "batch", "--antipode", source], False),
        ("reverse_geocoder 1.5.1, mode=1 (nearest city)", [sys.executable, peer, source, "1"], False),
        ("reverse_geocoder 1.5.1, mode=2 (nearest city)", [sys.executable, peer, source, "2"], False),
    ]
    results = {name: [] for name, _, _ in commands}
    for round_number in range(arguments.runs):
        for name, command, cold in commands:
            seconds, memory = run(command, os.path.join(arguments.work, "out.csv"), cold)
            results[name].append((seconds, memory))
            print("round %d  %-48s %7.2f s  %6.0f MiB" % (round_number + 1, name, seconds, memory), file=sys.stderr)
    peer_time = statistics.median(s for s, _ in results[commands[4][0]])
    print("%d points uniform on the sphere (seed 42), %d rounds, %s, %d cores, %s" % (
        arguments.rows, arguments.runs, platform.machine(), os.cpu_count(), time.strftime("%Y-%m-%d")))
    print()
    print("| command | median wall | rows/s | peak memory | vs reverse_geocoder mode=1 |")
    print("|---|---:|---:|---:|---:|")
    for name, _, _ in commands:
        seconds = statistics.median(s for s, _ in results[name])
        memory = max(m for _, m in results[name])
        print("| %s | %.2f s | %s | %.0f MiB | %.1f× |" % (
            name, seconds, format(int(arguments.rows / seconds), ","), memory, peer_time / seconds))


if __name__ == "__main__":
    main()
