"""reverse_geocoder over a CSV of id,lat,lon, as a user would run it: read, search, write a CSV."""

import csv
import sys

import reverse_geocoder


def main():
    path, mode = sys.argv[1], int(sys.argv[2])
    with open(path, newline="") as source:
        rows = list(csv.reader(source))
    header, rows = rows[0], rows[1:]
    found = reverse_geocoder.search([(float(r[1]), float(r[2])) for r in rows], mode=mode, verbose=False)
    out = csv.writer(sys.stdout)
    out.writerow(header + ["name", "admin1", "cc", "place_lat", "place_lon"])
    for row, place in zip(rows, found):
        out.writerow(row + [place["name"], place["admin1"], place["cc"], place["lat"], place["lon"]])


if __name__ == "__main__":
    main()
