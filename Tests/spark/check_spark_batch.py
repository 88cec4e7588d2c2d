"""The Spark job's output is `tunnel batch`'s, row for row: run by `Scripts/test --spark` (pyspark is a large download).

On 100,000 points with bad rows among them and a text column that needs quoting:
1. Parquet, every field, in local mode with two cores and one retry, the first attempt of a task losing its `tunnel`
   (killed) after its first batch: each input row comes out exactly once, and equals `tunnel batch` on the same file, value for value.
2. CSV, --fields nearestPlace,country --antipode: the same, text for text.
Both runs exit 65 (there are bad rows) and say how many. The job's own usage errors exit 64 without starting Spark.
"""

import csv
import math
import os
import random
import subprocess
import sys
import tempfile

import pyarrow.csv
import pyarrow.parquet

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TUNNEL = os.path.join(ROOT, ".build", "spark", "prefix", "bin", "tunnel")
ROWS = 100_000
BAD = {97: ("91", "8.5"), 1_013: ("abc", "8.5"), 5_000: ("12", ""), 77_777: ("NaN", "0"), 99_999: ("-90.5", "3")}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)


def write_points(path):
    generator = random.Random(7)
    with open(path, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "name", "lat", "lon"])
        for index in range(ROWS):
            z = generator.uniform(-1, 1)
            latitude, longitude = "%.6f" % math.degrees(math.asin(z)), "%.6f" % generator.uniform(-180, 180)
            latitude, longitude = BAD.get(index, (latitude, longitude))
            name = 'point %d, "quoted"' % index if index % 1_000 == 0 else "p%d" % index
            out.writerow([index, name, latitude, longitude])


def spark(arguments, environment=None):
    # spark-submit sends the driver's standard error to its standard output: read both.
    finished = subprocess.run([os.path.join(ROOT, "Scripts", "spark-batch")] + arguments, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=dict(os.environ, **(environment or {})))
    return finished.returncode, finished.stdout


def tunnel_batch(source, extra):
    finished = subprocess.run([TUNNEL, "batch", "--format", "csv"] + extra + [source], capture_output=True,
                              text=True)
    check(finished.returncode == 65, "tunnel batch exits 65 on bad rows, not %d" % finished.returncode)
    return list(csv.DictReader(finished.stdout.splitlines(keepends=True)))


def compare(expected, actual, label):
    """`expected`: tunnel batch's rows (text); `actual`: the job's rows as dicts, typed (Parquet) or text (CSV)."""
    check(len(actual) == ROWS, "%s: %d rows out of %d in" % (label, len(actual), ROWS))
    ids = [int(row["id"]) for row in actual]
    check(len(set(ids)) == len(ids), "%s: %d ids are repeated" % (label, len(ids) - len(set(ids))))
    by_id = {int(row["id"]): row for row in actual}
    differences = 0
    for want in expected:
        got = by_id.get(int(want["id"]))
        if got is None:
            check(False, "%s: row %s is missing" % (label, want["id"]))
            continue
        check(set(got) == set(want), "%s: columns %s, not %s" % (label, sorted(got), sorted(want)))
        for column, text in want.items():
            value = got.get(column)
            if isinstance(value, bool):
                same = text == ("true" if value else "false")
            elif isinstance(value, float):
                same = text != "" and float(text) == value
            elif isinstance(value, int):
                same = text != "" and int(text) == value
            else:
                same = (value or "") == text
            if not same:
                differences += 1
                if differences <= 10:
                    check(False, "%s: id %s, %s: %r, not %r" % (label, want["id"], column, value, text))
    check(differences == 0, "%s: %d values differ" % (label, differences))
    bad = sum(1 for row in actual if row.get("error"))
    check(bad == len(BAD), "%s: %d rows have an error, not %d" % (label, bad, len(BAD)))


def main():
    work = tempfile.mkdtemp(prefix="tunnel-spark-")
    source = os.path.join(work, "points.csv")
    write_points(source)

    status, said = spark(["--input", source, "--output", os.path.join(work, "none"), "--lat-column", "latitude"])
    check(status == 64 and "--lat-column 'latitude' is not a column" in said,
          "an unknown column is a usage error (64), not %d: %s" % (status, said[-300:]))

    output = os.path.join(work, "placemarks.parquet")
    status, said = spark(["--master", "local[2,2]", "--partitions", "4", "--input", source, "--output", output],
                         {"TUNNEL_SPARK_KILL_FIRST_ATTEMPT": "1"})
    check(status == 65, "the job exits 65 when rows were bad, not %d: %s" % (status, said[-2000:]))
    check("%d bad (see the error column)" % len(BAD) in said, "the job says how many rows were bad: %s" % said[-500:])
    check("killed by signal 9" in said, "the first attempt lost its tunnel and was retried: %s" % said[-500:])
    check("100,000 rows answered" in said, "the job says how many rows it answered")
    compare(tunnel_batch(source, []), pyarrow.parquet.read_table(output).to_pylist(), "parquet")

    output = os.path.join(work, "placemarks-csv")
    flags = ["--fields", "nearestPlace,country", "--antipode"]
    status, said = spark(["--master", "local[2]", "--input", source, "--output", output, "--output-format", "csv"]
                         + flags)
    check(status == 65, "the CSV job exits 65, not %d: %s" % (status, said[-2000:]))
    parts = sorted(os.path.join(output, name) for name in os.listdir(output) if name.endswith(".csv"))
    rows = []
    for part in parts:
        with open(part, newline="") as handle:
            rows.extend(csv.DictReader(handle))
    compare(tunnel_batch(source, flags), rows, "csv")

    if failures:
        print("%d check(s) failed; the job's files are in %s" % (len(failures), work), file=sys.stderr)
        return 1
    subprocess.run(["rm", "-rf", work])
    print("Spark job: parquet and CSV output equal tunnel batch on %s rows, bad rows and a retried task included"
          % format(ROWS, ","))
    return 0


if __name__ == "__main__":
    sys.exit(main())
