"""The Spark job's output is `tunnel batch`'s, row for row: run by `Scripts/test --spark` (pyspark is a large download),
after `Scripts/spark-batch --setup-only` (the runs here use what it installed: --installed).

On 100,000 points with bad rows among them and a text column that needs quoting:
1. Parquet, every field, through mapInArrow (--via arrow) in local mode with two cores and one retry, the first
   attempt of a task losing its `tunnel` (killed) after its first batch: each input row comes out exactly once, and
   equals `tunnel batch` on the same file, value for value.
2. CSV, --fields nearestPlace,country --antipode, through the script transform: the same, text for text.
3. Parquet, --fields land,sea,timeZone with the coordinate's columns given by number, each task's split piped to
   `tunnel` from the JVM (--via pipe) from a folder of two files with the same header, in six tasks: the same,
   value for value (each file's header dropped, wherever the splits fall).
4. Parquet, piped (--via pipe), on a standalone cluster (Scripts/spark-batch --cluster: a master and
   two workers, each worker in its own network namespace where they can be made), --fields
   nearestPlace,country,timeZone --antipode, the second worker killed with its executor once the first task has
   committed its rows: the same, value for value; the namespaces and the cluster's processes are gone afterwards.
5. Parquet written by `tunnel batch` itself (--via files) from the same folder in six tasks: the same rows, in the
   same order and with the same schema as the piped job's (which Spark wrote), one file a task and no attempt's
   leftovers; the same on the standalone cluster, every field, the workers writing into the driver's folder. An
   output that exists exits 74 (nothing replaced) and CSV output asked of it 64.
All runs exit 65 (there are bad rows) and say how many. The job's own usage errors exit 64 without starting Spark;
a folder whose files have different headers fails (1) naming the file.
"""

import csv
import glob
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pyarrow.csv
import pyarrow.parquet

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TUNNEL = os.path.join(ROOT, ".build", "spark", "prefix", "bin", "tunnel")
CLUSTER = os.path.join(ROOT, ".build", "spark", "cluster")
ROWS = 100_000
BAD = {97: ("91", "8.5"), 1_013: ("abc", "8.5"), 5_000: ("12", ""), 77_777: ("NaN", "0"), 99_999: ("-90.5", "3")}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)


def write_points(path, parts=None):
    """The points, in one file or (parts: a folder) in two with the same header."""
    generator = random.Random(7)
    handles = [open(path, "w", newline="")] if parts is None else [
        open(os.path.join(parts, "part-%d.csv" % number), "w", newline="") for number in (1, 2)]
    writers = [csv.writer(handle) for handle in handles]
    for out in writers:
        out.writerow(["id", "name", "lat", "lon"])
    for index in range(ROWS):
        z = generator.uniform(-1, 1)
        latitude, longitude = "%.6f" % math.degrees(math.asin(z)), "%.6f" % generator.uniform(-180, 180)
        latitude, longitude = BAD.get(index, (latitude, longitude))
        name = 'point %d, "quoted"' % index if index % 1_000 == 0 else "p%d" % index
        writers[index * len(writers) // ROWS].writerow([index, name, latitude, longitude])
    for handle in handles:
        handle.close()


def spark(arguments, environment=None):
    # spark-submit sends the driver's standard error to its standard output: read both.
    finished = subprocess.run([os.path.join(ROOT, "Scripts", "spark-batch"), "--installed"] + arguments,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ, **(environment or {})))
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


def cluster_run(source, output, flags):
    """Scripts/spark-batch --cluster, its second worker killed (its whole process group, as a host that dies) once
    the first task's output is committed and before the job ends. Returns the status, what it said, and whether
    the kill came mid-job."""
    process = subprocess.Popen([os.path.join(ROOT, "Scripts", "spark-batch"), "--installed", "--cluster",
                                "--partitions", "8", "--via", "pipe",
                                "--input", source, "--output", output] + flags,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    reader = threading.Thread(target=lambda: said.extend(process.stdout), daemon=True)
    reader.start()
    mid_job = False
    while process.poll() is None:
        if glob.glob(os.path.join(output, "_temporary", "*", "task_*")):
            done = os.path.exists(os.path.join(output, "_SUCCESS"))
            with open(os.path.join(CLUSTER, "worker-2.pid")) as handle:
                group = int(handle.read())
            os.killpg(group, signal.SIGKILL)
            mid_job = not done
            break
        time.sleep(0.05)
    status = process.wait()
    reader.join()
    return status, "".join(said), mid_job


def check_cluster(source, work):
    """The standalone cluster: two workers, each its own host where namespaces can be made, one killed mid-job."""
    output = os.path.join(work, "cluster.parquet")
    flags = ["--fields", "nearestPlace,country,timeZone", "--antipode"]
    status, said, mid_job = cluster_run(source, output, flags)
    check(status == 65, "the cluster job exits 65, not %d: %s" % (status, said[-3000:]))
    check(mid_job, "the second worker was killed before the job ended: %s" % said[-1000:])
    check("Lost executor" in said, "the driver lost the killed worker's executor: %s" % said[-1000:])
    with open(os.path.join(CLUSTER, "logs", "master.log")) as handle:
        master = handle.read()
    if "each in its own network namespace" in said:
        for host in ("10.231.31.11", "10.231.31.12"):
            check("Registering worker %s:" % host in master, "a worker registered from %s" % host)
        namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        check("tunnel-spark" not in namespaces, "the namespaces are gone after the job: %s" % namespaces)
    else:
        check("separate processes on loopback" in said, "the cluster says where its workers are: %s" % said[:2000])
        print("(no network namespaces here: the workers ran on loopback)", file=sys.stderr)
    check(master.count("Registering worker") == 2, "two workers joined the master")
    launched = [path for path in glob.glob(os.path.join(CLUSTER, "work", "worker-*", "app-*"))]
    check(len(launched) == 2, "each worker ran an executor: %s" % launched)
    check(not glob.glob(os.path.join(CLUSTER, "*.pid")), "the cluster's processes are stopped after the job")
    compare(tunnel_batch(source, flags), pyarrow.parquet.read_table(output).to_pylist(), "cluster")


def check_pipe(source, work):
    """The pipe way from a folder of two files, split into six tasks; then a folder whose files' headers differ."""
    folder = os.path.join(work, "points-folder")
    os.makedirs(folder)
    write_points(None, parts=folder)
    output = os.path.join(work, "piped.parquet")
    flags = ["--fields", "land,sea,timeZone"]
    status, said = spark(["--master", "local[2]", "--via", "pipe", "--partitions", "6", "--lat-column", "3",
                          "--lon-column", "4", "--input", folder, "--output", output] + flags)
    check(status == 65, "the piped job exits 65, not %d: %s" % (status, said[-2000:]))
    check("%d bad (see the error column)" % len(BAD) in said, "the piped job says how many rows were bad")
    check(", line " not in said, "the piped tasks' logs leave out tunnel's words on each bad row: %s" % said[-1500:])
    compare(tunnel_batch(source, flags), pyarrow.parquet.read_table(output).to_pylist(), "pipe")
    check_files(source, work, output)

    status, said = spark(["--via", "pipe", "--multiline", "--input", source, "--output", output])
    check(status == 64 and "--via pipe reads CSV one row a line" in said,
          "--via pipe with --multiline is a usage error (64), not %d: %s" % (status, said[-300:]))
    with open(os.path.join(folder, "part-2.csv")) as handle:
        rows = handle.read().split("\n", 1)[1]
    with open(os.path.join(folder, "part-2.csv"), "w") as handle:
        handle.write("id,name,latitude,lon\n" + rows)
    status, said = spark(["--master", "local[2]", "--via", "pipe", "--input", folder, "--output",
                          os.path.join(work, "mixed.parquet")])
    check(status == 1 and "do not all have the same header" in said and "part-2.csv has another header" in said,
          "files with different headers fail the job, naming the file (1), not %d: %s" % (status, said[-1500:]))


def check_files(source, work, piped):
    """The files way, from the folder check_pipe made, against the piped job's output `piped`; then on the
    cluster."""
    folder = os.path.join(work, "points-folder")
    output = os.path.join(work, "files.parquet")
    flags = ["--fields", "land,sea,timeZone"]
    status, said = spark(["--master", "local[2]", "--via", "files", "--partitions", "6", "--lat-column", "3",
                          "--lon-column", "4", "--input", folder, "--output", output] + flags)
    check(status == 65, "the files job exits 65, not %d: %s" % (status, said[-2000:]))
    check("%d bad (see the error column)" % len(BAD) in said, "the files job says how many rows were bad")
    names = sorted(os.listdir(output))
    check(names == ["_SUCCESS"] + ["part-%05d.parquet" % index for index in range(len(names) - 1)]
          and len(names) >= 7, "one file a task and _SUCCESS, nothing else: %s" % names)
    written = pyarrow.parquet.read_table(output)
    spark_written = pyarrow.parquet.read_table(piped)
    check(written.schema.remove_metadata() == spark_written.schema.remove_metadata(),
          "tunnel's Parquet has the schema Spark wrote for the piped job: %s, not %s" % (
              written.schema, spark_written.schema))
    check(written.to_pylist() == spark_written.to_pylist(), "tunnel's Parquet has the piped job's rows, in order")
    compare(tunnel_batch(source, flags), written.to_pylist(), "files")

    status, said = spark(["--via", "files", "--input", source, "--output", output] + flags)
    check(status == 74 and "give --overwrite" in said and os.path.exists(os.path.join(output, "_SUCCESS")),
          "an output that exists is refused (74) and kept, not %d: %s" % (status, said[-300:]))
    status, said = spark(["--via", "files", "--output-format", "csv", "--input", source, "--output", output])
    check(status == 64 and "--via files writes Parquet" in said,
          "--via files with CSV output is a usage error (64), not %d: %s" % (status, said[-300:]))

    output = os.path.join(work, "files-cluster.parquet")
    process = subprocess.run([os.path.join(ROOT, "Scripts", "spark-batch"), "--installed", "--cluster",
                              "--partitions", "4", "--via", "files", "--input", source, "--output", output],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(process.returncode == 65, "the files job on the cluster exits 65, not %d: %s" % (
        process.returncode, process.stdout[-3000:]))
    compare(tunnel_batch(source, []), pyarrow.parquet.read_table(output).to_pylist(), "files on the cluster")


def main():
    work = tempfile.mkdtemp(prefix="tunnel-spark-")
    source = os.path.join(work, "points.csv")
    write_points(source)

    status, said = spark(["--input", source, "--output", os.path.join(work, "none"), "--lat-column", "latitude"])
    check(status == 64 and "--lat-column 'latitude' is not a column" in said,
          "an unknown column is a usage error (64), not %d: %s" % (status, said[-300:]))

    output = os.path.join(work, "placemarks.parquet")
    status, said = spark(["--master", "local[2,2]", "--partitions", "4", "--via", "arrow", "--input", source,
                          "--output", output],
                         {"TUNNEL_SPARK_KILL_FIRST_ATTEMPT": "1"})
    check(status == 65, "the job exits 65 when rows were bad, not %d: %s" % (status, said[-2000:]))
    check("%d bad (see the error column)" % len(BAD) in said, "the job says how many rows were bad: %s" % said[-500:])
    check("killed by signal 9" in said, "the first attempt lost its tunnel and was retried: %s" % said[-500:])
    check("100,000 rows answered" in said, "the job says how many rows it answered")
    compare(tunnel_batch(source, []), pyarrow.parquet.read_table(output).to_pylist(), "parquet")

    output = os.path.join(work, "placemarks-csv")
    flags = ["--fields", "nearestPlace,country", "--antipode"]
    status, said = spark(["--master", "local[2]", "--via", "transform", "--input", source, "--output", output,
                          "--output-format", "csv"] + flags)
    check(status == 65, "the CSV job exits 65, not %d: %s" % (status, said[-2000:]))
    parts = sorted(os.path.join(output, name) for name in os.listdir(output) if name.endswith(".csv"))
    rows = []
    for part in parts:
        with open(part, newline="") as handle:
            rows.extend(csv.DictReader(handle))
    compare(tunnel_batch(source, flags), rows, "csv")

    check_pipe(source, work)
    check_cluster(source, work)

    if failures:
        print("%d check(s) failed; the job's files are in %s" % (len(failures), work), file=sys.stderr)
        return 1
    subprocess.run(["rm", "-rf", work])
    print("Spark job: parquet and CSV output equal tunnel batch on %s rows each way (mapInArrow, transform, pipe, files), "
          "bad rows and a retried task included, locally and on a standalone cluster that lost a worker mid-job; "
          "files with different headers fail the piped job" % format(ROWS, ","))
    return 0


if __name__ == "__main__":
    sys.exit(main())
