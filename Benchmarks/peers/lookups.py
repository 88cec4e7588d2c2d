"""tzfpy's get_tz and timezonefinder's timezone_at in process, each call timed alone, over the points
`tunnel-bench --lookups --points-out DIR` wrote: median, p99 and mean, as Tunnel's lookups are reported.

    python Benchmarks/peers/lookups.py DIR

Each time is `time.perf_counter_ns()` read before and after the call; the first line measures what that costs
with no call between (Python's own overhead, which Tunnel's Swift timing does not pay), so it can be taken off.
"""

import csv
import os
import sys
import time


def points(path):
    with open(path, newline="") as source:
        rows = csv.reader(source)
        next(rows)
        return [(float(lat), float(lon)) for lat, lon in rows]


def summary(times):
    times.sort()
    return times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)], sum(times) / len(times)


def time_each(function, where):
    clock = time.perf_counter_ns
    times = [0] * len(where)
    for index, (lat, lon) in enumerate(where):
        start = clock()
        function(lon, lat)
        times[index] = clock() - start
    return summary(times)


def nothing(lon, lat):
    return None


def micro(nanoseconds):
    return "%.2f µs" % (nanoseconds / 1000)


def main():
    folder = sys.argv[1]
    uniform = points(os.path.join(folder, "uniform.csv"))
    near = points(os.path.join(folder, "near-timeZone.csv"))
    from importlib.metadata import version
    from timezonefinder import TimezoneFinder
    from tzfpy import get_tz

    finder = TimezoneFinder(in_memory=True)
    peers = [
        ("an empty Python function (the timing's own cost)", nothing),
        ("tzfpy %s get_tz" % version("tzfpy"), get_tz),
        ("timezonefinder %s timezone_at (in_memory=True)" % version("timezonefinder"),
         lambda lon, lat: finder.timezone_at(lng=lon, lat=lat)),
    ]
    print("| peer, time zone only | uniform: median | p99 | mean | near a time zone's edge (1 km): median | p99 | mean |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, function in peers:
        for lat, lon in uniform[:10000]:
            function(lon, lat)
        far = time_each(function, uniform)
        close = time_each(function, near)
        print("| %s | %s |" % (name, " | ".join(micro(value) for value in far + close)))


if __name__ == "__main__":
    main()
