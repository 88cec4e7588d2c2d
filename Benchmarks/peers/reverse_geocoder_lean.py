"""reverse_geocoder at its leanest over a CSV of id,lat,lon: read the points, search, take each result's name;
no CSV is written, only the number of names (the process is timed whole)."""

import csv
import sys

import reverse_geocoder


def main():
    path, mode = sys.argv[1], int(sys.argv[2])
    with open(path, newline="") as source:
        rows = csv.reader(source)
        next(rows)
        points = [(float(row[1]), float(row[2])) for row in rows]
    names = [place["name"] for place in reverse_geocoder.search(points, mode=mode, verbose=False)]
    print(len(names))


if __name__ == "__main__":
    main()
