"""Writes small polygon layers for the place-data fuzzer, through the data build's own writer.

Usage: python3 seeds.py FOLDER   (writes small-as-is and small-sealed: the fuzzer's first byte, then a layer)
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Scripts", "data"))
import tunnelformat  # noqa: E402


def main():
    folder = sys.argv[1]
    circle = [(10 + 5 * math.sin(2 * math.pi * k / 200), 20 + 5 * math.cos(2 * math.pi * k / 200)) for k in range(200)]
    features = [
        (["Square with a hole"], 0, [[(0, 0), (0, 10), (10, 10), (10, 0)], [(2, 2), (2, 4), (4, 4), (4, 2)]]),
        (["Circle of 200 vertices, in chunks"], 0, [circle]),
        (["Beside the antimeridian"], 0, [[(-20, 179), (-20, 179.999), (-10, 179.999), (-10, 179)]]),
        (["Nördliche Ostsee — 北海"], 0, [[(54, 10), (54, 12), (56, 11)]]),
        ([None], 0, [[(89, -180), (89, 179.9), (90, 0)]]),
    ]
    path = os.path.join(folder, "small.tunnel")
    tunnelformat.write_polygon_layer(path, features, ["name"], [("layer", "fuzz seed")], tunnelformat.FINE_UNITS_PER_DEGREE)
    with open(path, "rb") as handle:
        layer = handle.read()
    os.remove(path)
    for name, first in (("small-as-is", b"\0"), ("small-sealed", b"\1")):
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(first + layer)


if __name__ == "__main__":
    main()
