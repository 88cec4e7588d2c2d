"""tzfpy over a CSV of id,lat,lon, point by point from a Python loop: read, get_tz, write one zone a line."""

import csv
import sys

from tzfpy import get_tz


def main():
    with open(sys.argv[1], newline="") as source:
        rows = csv.reader(source)
        next(rows)
        zones = [get_tz(float(row[2]), float(row[1])) for row in rows]
    sys.stdout.write("\n".join(zones) + "\n")


if __name__ == "__main__":
    main()
