"""`tunnel serve` answers the clients that people already use, unchanged: run by `Scripts/test --serve`.

    python Tests/serve/check_clients.py --tunnel PATH [--data DIR] [--max-examples N]

It starts its own server on a free port and checks, against it:
1. geopy 2.5.0's Nominatim and Photon geocoders: reverse on land (56, 8.5: Denmark) and at sea (-56, -171.5: the
   South Pacific Ocean), and a search for København (Copenhagen, near 55.68, 12.57).
2. GDAL's OGR geocoder (`ogr_geocode_reverse` and `ogr_geocode` in ogrinfo's SQLite dialect) with its Nominatim
   service pointed at the server by its query templates.
3. The exact requests that Leaflet Control Geocoder's Nominatim and Photon providers and Traccar's Nominatim and Photon
   geocoders send, replayed byte for byte: status 200 and the fields those clients read.
4. schemathesis against /openapi.json with every check and a bounded number of examples: no 5xx, answers as documented.
It needs geopy, schemathesis (in the same Python) and ogrinfo (Debian's gdal-bin); Scripts/test --serve installs them.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tunnel_server import TunnelServer  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LAND = (56.0, 8.5)
SEA = (-56.0, -171.5)
COPENHAGEN = (55.68, 12.57)
passed, failed = [], []


def check(condition, label, detail=""):
    if condition:
        passed.append(label)
        print("ok   " + label)
    else:
        failed.append(label)
        print("FAIL " + label + (": " + detail if detail else ""))
    return condition


def attempt(label, function):
    """Runs one client check; an exception from the client is that check failing, with the exception as the reason."""
    started = time.monotonic()
    try:
        function()
    except Exception as error:  # a client raising is what a user would see: report it and go on
        check(False, label, "%s: %s" % (type(error).__name__, error))
    print("     (%s: %.1f s)" % (label, time.monotonic() - started))


def near(latitude, longitude, expected, tolerance=0.05):
    return abs(latitude - expected[0]) <= tolerance and abs(longitude - expected[1]) <= tolerance


# 1. geopy


def check_geopy(server):
    from geopy.geocoders import Nominatim, Photon

    host = "%s:%d" % server.host_port
    nominatim = Nominatim(domain=host, scheme="http", user_agent="tunnel-serve-tests", timeout=10)
    photon = Photon(domain=host + "/photon", scheme="http", user_agent="tunnel-serve-tests", timeout=10)
    for name, geocoder in [("Nominatim", nominatim), ("Photon", photon)]:
        def land():
            location = geocoder.reverse("%g, %g" % LAND)
            check(location is not None and "Denmark" in location.address, "geopy %s reverse %s names Denmark"
                  % (name, LAND), repr(location and location.address))

        def sea():
            location = geocoder.reverse("%g, %g" % SEA)
            check(location is not None and "South Pacific Ocean" in location.address,
                  "geopy %s reverse %s names the South Pacific Ocean" % (name, SEA), repr(location and location.raw))

        def search():
            location = geocoder.geocode("København")
            check(location is not None and "Copenhagen" in location.address
                  and near(location.latitude, location.longitude, COPENHAGEN),
                  "geopy %s geocode('København') is Copenhagen near %s" % (name, COPENHAGEN),
                  repr(location and (location.address, location.latitude, location.longitude)))

        attempt("geopy %s reverse land" % name, land)
        attempt("geopy %s reverse sea" % name, sea)
        attempt("geopy %s geocode" % name, search)


# 2. GDAL


def ogr_sql(sql, options, work):
    """ogrinfo's first row for `sql` in the SQLite dialect, with the OGR geocoder's config `options`."""
    command = ["ogrinfo", "-ro", "-q", ":memory:", "-dialect", "SQLite", "-sql", sql]
    for key, value in options.items():
        command += ["--config", key, value]
    finished = subprocess.run(command, capture_output=True, text=True, cwd=work, timeout=60)
    return finished.returncode, finished.stdout + finished.stderr


def check_gdal(server):
    if shutil.which("ogrinfo") is None:
        check(False, "GDAL: ogrinfo is installed", "install Debian's gdal-bin (Scripts/test --serve does)")
        return
    with tempfile.TemporaryDirectory() as work:
        options = {
            "OGR_GEOCODE_SERVICE": "OSM_NOMINATIM",
            "OGR_GEOCODE_REVERSE_QUERY_TEMPLATE": server.url + "/reverse?format=xml&lat={lat}&lon={lon}",
            "OGR_GEOCODE_QUERY_TEMPLATE": server.url + "/search?q=%s&format=xml&polygon_text=1",
            "OGR_GEOCODE_APPLICATION": "tunnel-serve-tests",
            "OGR_GEOCODE_CACHE_FILE": os.path.join(work, "ogr_geocode_cache.csv"),
            "OGR_GEOCODE_READ_CACHE": "FALSE",
            "OGR_GEOCODE_DELAY": "0",
        }

        def reverse():
            status, output = ogr_sql("SELECT ogr_geocode_reverse(%g, %g, 'display_name') AS display_name"
                                     % (LAND[1], LAND[0]), options, work)
            check(status == 0 and "Denmark" in output, "GDAL ogr_geocode_reverse(8.5, 56) names Denmark", output)

        def reverse_sea():
            status, output = ogr_sql("SELECT ogr_geocode_reverse(%g, %g, 'display_name') AS display_name"
                                     % (SEA[1], SEA[0]), options, work)
            check(status == 0 and "South Pacific Ocean" in output,
                  "GDAL ogr_geocode_reverse(-171.5, -56) names the South Pacific Ocean", output)

        def search():
            status, output = ogr_sql("SELECT ogr_geocode('København', 'display_name') AS display_name, "
                                     "ST_X(ogr_geocode('København')) AS lon, ST_Y(ogr_geocode('København')) AS lat",
                                     options, work)
            values = dict(line.strip().split(" = ", 1) for line in output.splitlines() if " = " in line)
            for key in list(values):
                values[key.split(" (")[0]] = values[key]
            try:
                position = float(values.get("lat", "nan")), float(values.get("lon", "nan"))
            except ValueError:
                position = (float("nan"), float("nan"))
            check(status == 0 and "Copenhagen" in output and near(*position, COPENHAGEN),
                  "GDAL ogr_geocode('København') is Copenhagen near %s" % (COPENHAGEN,), output)

        attempt("GDAL reverse land", reverse)
        attempt("GDAL reverse sea", reverse_sea)
        attempt("GDAL search", search)


# 3. Leaflet Control Geocoder and Traccar, replayed


def get(server, path, headers=None):
    request = urllib.request.Request(server.url + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def replay(server, label, path, headers, fields_ok):
    """GETs `path` as the client would; `fields_ok(document)` returns what is missing ("" when nothing is)."""
    def run():
        status, content_type, body = get(server, path, headers)
        if not check(status == 200, "%s: GET %s is 200" % (label, path), "%d %r" % (status, body[:300])):
            return
        try:
            document = json.loads(body)
        except ValueError as error:
            check(False, "%s: GET %s is JSON" % (label, path), "%s; %r" % (error, body[:300]))
            return
        check("json" in content_type, "%s: GET %s says it is JSON" % (label, path), "Content-Type %r" % content_type)
        missing = fields_ok(document)
        check(not missing, "%s: GET %s has what the client reads" % (label, path),
              missing + "; body " + body[:600].decode(errors="replace"))
    attempt(label + " " + path, run)


def leaflet_nominatim_search(document):
    # nominatim.ts geocode(): data[i].boundingbox[0..3] as numbers, lat, lon, display_name, icon, address for html.
    if not isinstance(document, list) or not document:
        return "not a non-empty array"
    for place in document:
        box = place.get("boundingbox")
        if not (isinstance(box, list) and len(box) == 4 and all(_number(value) for value in box)):
            return "boundingbox %r is not four numbers" % (box,)
        if not (_number(place.get("lat")) and _number(place.get("lon")) and place.get("display_name")):
            return "lat, lon or display_name missing"
        if not isinstance(place.get("address"), dict):
            return "address is not an object"
    top = document[0]
    if not near(float(top["lat"]), float(top["lon"]), COPENHAGEN) or "Copenhagen" not in top["display_name"]:
        return "first result is %r, not Copenhagen" % top["display_name"]
    return ""


def leaflet_nominatim_reverse(expected_name):
    def fields(document):
        # nominatim.ts reverse(): data.lat && data.lon, data.display_name, data.address for html.
        if not isinstance(document, dict) or not (_number(document.get("lat")) and _number(document.get("lon"))):
            return "lat and lon missing"
        if expected_name not in (document.get("display_name") or ""):
            return "display_name %r does not name %s" % (document.get("display_name"), expected_name)
        return "" if isinstance(document.get("address"), dict) else "address is not an object"
    return fields


def photon_features(expected_name, position=None):
    def fields(document):
        # photon.ts _decodeFeatures(): features[i].geometry.coordinates [lon, lat], properties (name, street, …,
        # country), properties.extent [west, north, east, south] when present. Traccar: properties.countrycode etc.
        features = document.get("features") if isinstance(document, dict) else None
        if not isinstance(features, list) or not features:
            return "features missing or empty"
        for feature in features:
            coordinates = (feature.get("geometry") or {}).get("coordinates")
            if not (isinstance(coordinates, list) and len(coordinates) >= 2 and all(map(_number, coordinates[:2]))):
                return "geometry.coordinates %r is not [lon, lat]" % (coordinates,)
            properties = feature.get("properties")
            if not isinstance(properties, dict):
                return "properties is not an object"
            extent = properties.get("extent")
            if extent is not None and not (isinstance(extent, list) and len(extent) == 4):
                return "extent %r is not four numbers" % (extent,)
            for key in ["name", "street", "city", "state", "country", "countrycode", "postcode", "housenumber"]:
                if key in properties and not isinstance(properties[key], str):
                    return "properties.%s is %r, not a string (Traccar reads it with getString)" % (key, properties[key])
        properties = features[0]["properties"]
        name = ", ".join(str(properties[key]) for key in ["name", "street", "suburb", "hamlet", "town", "city",
                                                          "state", "country"] if properties.get(key))
        if expected_name not in name:
            return "the name Leaflet shows, %r, does not name %s" % (name, expected_name)
        lon, lat = features[0]["geometry"]["coordinates"][:2]
        if position is not None and not near(lat, lon, position):
            return "first feature at %s, %s, not near %s" % (lat, lon, position)
        return ""
    return fields


def traccar_nominatim(expected_country_code):
    def fields(document):
        # NominatimGeocoder.parseAddress(): json.address must be an object (else "Empty address"); display_name,
        # house_number, road, suburb, village|town|city, state_district|region, state, country_code, postcode are
        # read with getString, so each one present must be a string.
        address = document.get("address") if isinstance(document, dict) else None
        if not isinstance(address, dict):
            return "address is not an object: Traccar reports 'Empty address'"
        for key in ["house_number", "road", "suburb", "village", "town", "city", "state_district", "region", "state",
                    "country_code", "postcode"]:
            if key in address and not isinstance(address[key], str):
                return "address.%s is %r, not a string" % (key, address[key])
        if "display_name" in document and not isinstance(document["display_name"], str):
            return "display_name is not a string"
        if (address.get("country_code") or "").upper() != expected_country_code:
            return "country_code %r, not %s" % (address.get("country_code"), expected_country_code)
        return ""
    return fields


def _number(value):
    try:
        float(value)
        return not isinstance(value, bool)
    except (TypeError, ValueError):
        return False


def check_replays(server):
    accept = {"Accept": "application/json"}
    # Leaflet Control Geocoder (src/geocoders/nominatim.ts, photon.ts; util.ts getJSON/getParamString): parameters
    # in the order the code lists them, values through encodeURIComponent(String(value)), Accept: application/json.
    # reverse() sends zoom = round(log2(scale / 256)); the control passes the map's scale, 256 * 2^zoom (18 here).
    replay(server, "Leaflet Nominatim search", "/search?q=K%C3%B8benhavn&limit=5&format=json&addressdetails=1", accept,
           leaflet_nominatim_search)
    replay(server, "Leaflet Nominatim reverse", "/reverse?lat=56&lon=8.5&zoom=18&addressdetails=1&format=json",
           accept, leaflet_nominatim_reverse("Denmark"))
    replay(server, "Leaflet Nominatim reverse at sea",
           "/reverse?lat=-56&lon=-171.5&zoom=18&addressdetails=1&format=json", accept,
           leaflet_nominatim_reverse("South Pacific Ocean"))
    # Photon's serviceUrl and reverseUrl end in a slash: .../api/ and .../reverse/.
    replay(server, "Leaflet Photon search", "/photon/api/?q=K%C3%B8benhavn", accept,
           photon_features("Copenhagen", COPENHAGEN))
    replay(server, "Leaflet Photon reverse", "/photon/reverse/?lat=56&lon=8.5", accept, photon_features("Denmark"))
    replay(server, "Leaflet Photon reverse at sea", "/photon/reverse/?lat=-56&lon=-171.5", accept,
           photon_features("South Pacific Ocean"))
    # Traccar (NominatimGeocoder, PhotonGeocoder): String.format(url + "?format=json&lat=%f&lon=%f&zoom=18&
    # addressdetails=1", lat, lon), so six decimals; the JAX-RS client sends Accept: application/json.
    replay(server, "Traccar Nominatim",
           "/reverse?format=json&lat=56.000000&lon=8.500000&zoom=18&addressdetails=1", accept, traccar_nominatim("DK"))
    replay(server, "Traccar Photon", "/photon/reverse?lat=56.000000&lon=8.500000", accept, photon_features("Denmark"))


# 4. schemathesis


def check_schemathesis(server, max_examples, work):
    command = [os.path.join(os.path.dirname(sys.executable), "schemathesis"), "run", server.url + "/openapi.json",
               "--url", server.url, "--checks", "all", "--max-examples", str(max_examples), "--seed", "1",
               "--workers", "2", "--request-timeout", "10", "--max-failures", "50", "--no-shrink",
               "--report", "junit", "--report-dir", work]
    print("$ " + " ".join(command), flush=True)
    started = time.monotonic()
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=300,
                                  env=dict(os.environ, NO_COLOR="1", SCHEMATHESIS_TELEMETRY="false"))
    except subprocess.TimeoutExpired:
        check(False, "schemathesis", "did not finish within 300 s")
        return
    output = finished.stdout + finished.stderr
    print("\n".join(output.splitlines()[-60:]))
    print("     (schemathesis: %.1f s)" % (time.monotonic() - started))
    check(finished.returncode == 0, "schemathesis --checks all on /openapi.json finds nothing",
          "exit %d; the failures are above" % finished.returncode)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tunnel", required=True, help="the tunnel executable to serve with")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data"), help="the place data folder")
    parser.add_argument("--max-examples", type=int, default=25, help="schemathesis examples per operation")
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: geopy,gdal,replay,schemathesis")
    arguments = parser.parse_args()
    skip = set(filter(None, arguments.skip.split(",")))
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work, TunnelServer(arguments.tunnel, arguments.data, "--quiet") as server:
        print("serving at %s (pid %d)" % (server.url, server.pid), flush=True)
        if "geopy" not in skip:
            check_geopy(server)
        if "gdal" not in skip:
            check_gdal(server)
        if "replay" not in skip:
            check_replays(server)
        if "schemathesis" not in skip:
            check_schemathesis(server, arguments.max_examples, work)
        check(server.process.poll() is None, "the server is still running after every client",
              "exit %s; stderr:\n%s" % (server.process.returncode, server.tail()))
        status = server.stop()
        check(status == 0, "the server exits 0 on SIGTERM", "exit %s" % status)
    print("check_clients: %.1f s" % (time.monotonic() - started))
    for label in failed:
        print("failed: " + label)
    print("%d passed, %d failed" % (len(passed), len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
