"""global-land-mask over a CSV of id,lat,lon, vectorised as it is meant to be used: read the columns with numpy,
globe.is_land on the whole arrays, write true or false a line."""

import sys

import numpy
from global_land_mask import globe


def main():
    latitudes, longitudes = numpy.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2), unpack=True)
    land = globe.is_land(latitudes, longitudes)
    sys.stdout.write("\n".join(numpy.where(land, "true", "false").tolist()) + "\n")


if __name__ == "__main__":
    main()
