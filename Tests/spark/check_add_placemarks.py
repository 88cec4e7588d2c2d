"""`add_placemarks`, the DataFrame function, on its own: run by `Scripts/test --spark` in one local Spark session.

On a small DataFrame whose columns are of every type the script transform carries, with text that could break a
line or a field (tabs, line feeds, carriage returns, backslashes, `\\N`, a leading "=", nulls, empty text), and
bad coordinates:
1. Both ways ("arrow", the default, and "transform") give the same rows: every row once, its own columns
   unchanged, and the added columns equal to `tunnel batch` on the same coordinates, typed.
2. A column the transform cannot carry (a timestamp, an array) goes through the default "arrow" with the same
   answers, and is a usage error with via="transform".
3. One coordinate column, a list of fields, the antipode, text instead of types.
4. Usage errors: an unknown column, a field tunnel does not know, a column tunnel would add.
"""

import csv
import datetime
import decimal
import io
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TUNNEL = os.path.join(ROOT, ".build", "spark", "prefix", "bin", "tunnel")
sys.path.insert(0, os.path.join(ROOT, "Examples", "spark"))
from tunnel_spark import UsageError, add_placemarks  # noqa: E402

TEXTS = ["plain", "tab\there", "line\nfeed", "carriage\rreturn", "back\\slash", "\\N", "\\t literally", "=marked",
         "", None, "ünïcødé ⛏", " spaced ", 'quote "d', "ends with \\", "\\\\", "\t\n\r\\", "nul\x00 escape\x1b",
         "%41 %25 %", "%5C%09%"]
COORDINATES = [(55.68, 12.57), (-33.9, 18.4), (91.0, 0.0), (None, 3.0), (0.0, 0.0), (float("nan"), 1.0),
               (-89.999, 179.999), (12.5, -180.0), (40.7, -74.0), (64.1, -21.9), (-0.5, 100.2), (35.0, 139.0),
               (1.0, 1.0), (-45.0, 170.0), (70.0, 25.0), (10.0, -70.0), (-20.0, -150.0), (48.85, 2.35),
               (30.0, 31.2)]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)


def expected(rows, flags):
    """`tunnel batch`'s rows (text) for the coordinates, in order."""
    lines = io.StringIO()
    out = csv.writer(lines)
    out.writerow(["lat", "lon"])
    for latitude, longitude in rows:
        out.writerow(["" if latitude is None else repr(latitude), "" if longitude is None else repr(longitude)])
    finished = subprocess.run([TUNNEL, "batch", "--format", "csv"] + flags, input=lines.getvalue(),
                              capture_output=True, text=True)
    check(finished.returncode == 65, "tunnel batch exits 65 on bad rows, not %d" % finished.returncode)
    return list(csv.DictReader(io.StringIO(finished.stdout)))


def same(value, text):
    """A typed value from Spark against tunnel's text for it (empty text is null)."""
    if text == "":
        return value is None
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, float):
        return float(text) == value
    if isinstance(value, int):
        return int(text) == value
    return value == text


def compare(label, result, source, want, as_text=False):
    """Every row of `source` once in `result`, its columns unchanged, then `want`'s added columns."""
    rows = {row["id"]: row.asDict() for row in result.collect()}
    check(len(rows) == len(source) and result.count() == len(source),
          "%s: %d rows (%d ids) for %d" % (label, result.count(), len(rows), len(source)))
    added = [name for name in want[0] if name not in ("lat", "lon")]
    check(result.columns == list(source[0].asDict()) + added, "%s: columns %s" % (label, result.columns))
    for index, original in enumerate(source):
        got = rows.get(original["id"], {})
        for name, value in original.asDict().items():
            both_nan = isinstance(value, float) and value != value and got.get(name) != got.get(name)
            check(both_nan or got.get(name) == value, "%s: id %d, %s: %r, not %r" % (
                label, original["id"], name, got.get(name), value))
        for name in added:
            text = want[index][name]
            value = got.get(name)
            ok = (value == (text or None)) if as_text else same(value, text)
            check(ok, "%s: id %d, %s: %r, not %r" % (label, original["id"], name, value, text))


def way_of(frame):
    plan = frame._jdf.queryExecution().executedPlan().toString()
    return "transform" if "ScriptTransformation" in plan else "arrow" if "MapInArrow" in plan else plan


def main():
    from pyspark.sql import SparkSession, functions, types

    spark = SparkSession.builder.master("local[2]").appName("add_placemarks").config(
        "spark.log.level", "WARN").getOrCreate()
    schema = types.StructType.fromDDL(
        "id int, name string, lat double, lon double, day date, price decimal(12,3), flag boolean, ratio float, "
        "big bigint")
    rows = []
    for index, ((latitude, longitude), name) in enumerate(zip(COORDINATES, TEXTS)):
        rows.append((index, name, latitude, longitude, datetime.date(2000 + index, 1 + index % 12, 28),
                     None if index == 3 else decimal.Decimal("%d.125" % (index * 1000 - 7000)), index % 3 == 0,
                     index / 7.0 if index != 4 else None, (1 << 62) + index))
    points = spark.createDataFrame(rows, schema).repartition(3)
    source = sorted(points.collect(), key=lambda row: row["id"])
    coordinates = [(row["lat"], row["lon"]) for row in source]
    flags = ["--fields", "nearestPlace,country,sea"]
    want = expected(coordinates, flags)

    fields = "nearestPlace,country,sea"
    by_default = add_placemarks(points, fields, tunnel=TUNNEL)
    check(way_of(by_default) == "arrow", "mapInArrow by default, not %s" % way_of(by_default))
    kinds = dict(by_default.dtypes)
    check((kinds["nearest_place_km"], kinds["nearest_place_population"], kinds["in_lake"], kinds["country_name"]) ==
          ("double", "bigint", "boolean", "string"), "typed columns: %s" % by_default.dtypes)
    compare("arrow", by_default, source, want)
    through_transform = add_placemarks(points, fields, tunnel=TUNNEL, via="transform")
    check(way_of(through_transform) == "transform", "via='transform': the script transform, not %s"
          % way_of(through_transform))
    compare("transform", through_transform, source, want)

    timed = points.withColumn("seen", points["day"].cast("timestamp")).withColumn(
        "tags", functions.array(points["name"]))
    with_timestamp = add_placemarks(timed, fields, tunnel=TUNNEL)
    check(way_of(with_timestamp) == "arrow", "a timestamp or an array: arrow by default, not %s"
          % way_of(with_timestamp))
    compare("arrow by default", with_timestamp, sorted(timed.collect(), key=lambda row: row["id"]), want)

    single = points.selectExpr("id", "concat_ws(' ', lat, lon) AS position")
    text_flags = ["--fields", "timeZone,land", "--antipode"]
    text_want = expected(coordinates, text_flags)
    for row in text_want:  # the reference has lat and lon; the DataFrame one `position` column
        row.pop("error")
    placemarks = add_placemarks(single, ["timeZone", "land"], antipode=True, columns="position", text=True,
                                tunnel=TUNNEL)
    check(all(kind == "string" for name, kind in placemarks.dtypes if name not in ("id",)),
          "text=True: every added column is text: %s" % placemarks.dtypes)
    compare("one column, text", placemarks.drop("error"), sorted(single.collect(), key=lambda row: row["id"]),
            text_want, as_text=True)

    for label, call in (
            ("an unknown column", lambda: add_placemarks(points, columns=("lat", "nope"), tunnel=TUNNEL)),
            ("an unknown field", lambda: add_placemarks(points, "nearestPlace,elevation", tunnel=TUNNEL)),
            ("a column tunnel adds", lambda: add_placemarks(points.withColumnRenamed("name", "error"),
                                                            tunnel=TUNNEL)),
            ("a timestamp through the transform", lambda: add_placemarks(timed, fields, tunnel=TUNNEL,
                                                                         via="transform"))):
        try:
            call()
            check(False, "%s is a UsageError" % label)
        except UsageError as error:
            print("(%s: %s)" % (label, error), file=sys.stderr)
    spark.stop()
    if failures:
        print("%d check(s) of add_placemarks failed" % len(failures), file=sys.stderr)
        return 1
    print("add_placemarks: both ways equal tunnel batch on %d rows of awkward text and every carried type"
          % len(source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
