"""reverse_geocode over a CSV of id,lat,lon, as a user would run it: read, search, write a CSV."""

import csv
import sys

import reverse_geocode


def main():
    path = sys.argv[1]
    with open(path, newline="") as source:
        rows = list(csv.reader(source))
    header, rows = rows[0], rows[1:]
    found = reverse_geocode.search([(float(r[1]), float(r[2])) for r in rows])
    out = csv.writer(sys.stdout)
    out.writerow(header + ["city", "country_code", "place_lat", "place_lon"])
    for row, place in zip(rows, found):
        out.writerow(row + [place["city"], place["country_code"], place["latitude"], place["longitude"]])


if __name__ == "__main__":
    main()
