"""timezonefinder over a CSV of id,lat,lon, point by point from a Python loop, one instance reused (its docs' way
for many points; `--in-memory` loads the polygons into memory, as the docs show for speed): read, timezone_at,
write one zone a line."""

import csv
import sys

from timezonefinder import TimezoneFinder


def main():
    finder = TimezoneFinder(in_memory="--in-memory" in sys.argv[2:])
    timezone_at = finder.timezone_at
    with open(sys.argv[1], newline="") as source:
        rows = csv.reader(source)
        next(rows)
        zones = [timezone_at(lng=float(row[2]), lat=float(row[1])) or "" for row in rows]
    sys.stdout.write("\n".join(zones) + "\n")


if __name__ == "__main__":
    main()
