"""What Spark costs `tunnel batch`: the Spark job, each way rows can reach `tunnel`, locally and on a standalone
cluster, against `tunnel batch` alone and Spark's own copy of the same points.

Usage: python bench.py --tunnel BINARY --data DIR [--rows N] [--runs N] [--work DIR] [--out FILE]

Run by `Scripts/bench --spark` after `Scripts/spark-batch --setup-only`; every Spark command goes through
`Scripts/spark-batch --installed`. For nearest place and for every field: `tunnel batch` alone (CSV to CSV,
all cores), and the job (CSV to Parquet) each way: each task's split piped to `tunnel` from the JVM, which writes
its own Parquet file (files) or CSV that Spark reads back (pipe), Spark SQL's script transform and mapInArrow, on
`local[1]`, `local[2]` and `--cluster` (a standalone master and two workers of one core each, each worker in its
own network namespace where it can be; started and stopped by each run). Spark's own share: a job that reads the
same CSV and writes it to Parquet untouched (copy_job.py), on the same masters; the same with every row passed
through mapInArrow's Python worker unchanged (the arrow way's floor); and the same copy of `tunnel batch`'s own
answers for the nearest place, typed as the job types them (what any way pays to write the answers). Every Spark
run splits the file into two partitions (spark.sql.files.maxPartitionBytes), so that both cores or both workers
have a task.

Each command is a whole process (spark-submit starts a JVM, --cluster a master and two workers first); the job's
own clock (from the first row read to the last one written) is given beside it. Rounds interleave the commands.
"""

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "batch"))
import bench as batch_bench  # noqa: E402  (the batch benchmark's point generator)

SPARK_BATCH = os.path.join(ROOT, "Scripts", "spark-batch")
COPY = os.path.join(HERE, "copy_job.py")
WAYS = ("files", "pipe", "transform", "arrow")
CLUSTER_CORES = 2


def run(command, output, work):
    """Wall seconds of one whole process, the job's own seconds when it says them, and whether the cluster's
    workers were hosts of their own.

    A Spark job writes the folder `output` (removed first); `tunnel batch` (output None) writes its standard
    output to a file in `work`.
    """
    if output and os.path.exists(output):
        shutil.rmtree(output)
    with open(os.path.join(work, "stdout.txt"), "wb") as sink:
        start = time.perf_counter()
        finished = subprocess.run(command, stdout=sink, stderr=subprocess.PIPE if output is None else subprocess.STDOUT)
        seconds = time.perf_counter() - start
    with open(os.path.join(work, "stdout.txt"), "rb") as said:
        said = (finished.stderr or b"").decode(errors="replace") if output is None else said.read().decode(
            errors="replace")
    if finished.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(command), finished.returncode, said[-3000:]))
    inside = re.search(r"answered in ([0-9.]+) s|copied in ([0-9.]+) s", said)
    return (seconds, float(inside.group(1) or inside.group(2)) if inside else None,
            "each in its own network namespace" in said)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tunnel", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "spark", "bench"))
    parser.add_argument("--out")
    arguments = parser.parse_args()
    os.makedirs(arguments.work, exist_ok=True)
    source = os.path.join(arguments.work, "points-%d.csv" % arguments.rows)
    batch_bench.points(source, arguments.rows)
    output = os.path.join(arguments.work, "out")
    split = "spark.sql.files.maxPartitionBytes=%d" % (os.path.getsize(source) // 2 + 1)
    # `tunnel batch`'s own answers for the nearest place, for Spark's copy of them.
    answers = os.path.join(arguments.work, "answers-%d.csv" % arguments.rows)
    with open(answers, "wb") as sink:
        subprocess.run([arguments.tunnel, "batch", "--data", arguments.data, "--fields", "nearestPlace", source],
                       stdout=sink, check=True)
    answers_split = "spark.sql.files.maxPartitionBytes=%d" % (os.path.getsize(answers) // 2 + 1)

    def spark(where, extra, conf=split):
        place = ["--cluster"] if where == "cluster" else ["--master", where]
        return [SPARK_BATCH, "--installed", "--conf", conf] + place + extra

    def job(where, way, fields):
        return spark(where, ["--input", source, "--output", output, "--via", way]
                     + (["--fields", fields] if fields else []))

    commands = []
    for label, fields, masters in (("nearest place", "nearestPlace", ("local[1]", "local[2]", "cluster")),
                                   ("every field", None, ("local[2]", "cluster"))):
        alone = [arguments.tunnel, "batch", "--data", arguments.data] + (["--fields", fields] if fields else [])
        commands.append((label, "tunnel batch alone", "all cores", alone + [source], None))
        for where in masters:
            for way in WAYS:
                commands.append((label, way, where, job(where, way, fields), output))
    for where in ("local[1]", "local[2]", "cluster"):
        commands.append(("Spark alone", "read the CSV, write Parquet", where,
                         spark(where, ["--job", COPY, source, output]), output))
    # The floor of the arrow way: the same copy with every row through mapInArrow's Python worker, unchanged.
    for where in ("local[2]", "cluster"):
        commands.append(("Spark alone", "the same through mapInArrow, unchanged", where,
                         spark(where, ["--job", COPY, source, output, "--through-arrow"]), output))
    # What writing the answers costs any way: `tunnel batch`'s nearest-place CSV read and written as the job types it.
    for where in ("local[2]", "cluster"):
        commands.append(("Spark alone", "read `tunnel batch`'s answers, write Parquet", where,
                         spark(where, ["--job", COPY, answers, output, "--typed"], answers_split), output))
    results = {command[:3]: [] for command in commands}
    namespaces = set()
    for round_number in range(arguments.runs):
        for label, way, where, command, out in commands:
            seconds, inside, own_hosts = run(command, out, arguments.work)
            if where == "cluster":
                namespaces.add(own_hosts)
            results[(label, way, where)].append((seconds, inside))
            print("round %d  %-14s %-28s %-9s %7.2f s%s" % (
                round_number + 1, label, way, where, seconds, "" if inside is None else "  (job %.2f s)" % inside),
                file=sys.stderr)

    def median(label, way, where, own=True):
        samples = results[(label, way, where)]
        values = [inside if own else seconds for seconds, inside in samples if (inside if own else seconds)]
        return statistics.median(values) if values else None

    lines = []

    def say(text=""):
        lines.append(text)
        print(text)

    say("## Spark's cost: `tunnel batch` under Spark, each way rows reach it, locally and on a cluster")
    say()
    say("%s; %s, %d cores, Linux %s; %s points uniform on the sphere (%.0f MB of CSV, read as two partitions); "
        "medians of %d rounds, measured by `Scripts/bench --spark --rows %d --runs %d`. The cluster: a master and "
        "two workers of one core each on this machine, %s." % (
            time.strftime("%Y-%m-%d"), platform.machine(), os.cpu_count(), platform.release(),
            format(arguments.rows, ","), os.path.getsize(source) / 1e6, arguments.runs, arguments.rows,
            arguments.runs, "each worker in its own network namespace" if namespaces == {True}
            else "the workers on loopback (no network namespaces)"))
    say()
    say("| what | way | where | whole process | rows/s | the job's own clock | rows/s |")
    say("|---|---|---|---:|---:|---:|---:|")
    for label, way, where, _, _ in commands:
        seconds = median(label, way, where, own=False)
        inside = median(label, way, where)
        say("| %s | %s | %s | %.2f s | %s | %s | %s |" % (
            label, way, where, seconds, format(int(arguments.rows / seconds), ","),
            "%.2f s" % inside if inside else "–", format(int(arguments.rows / inside), ",") if inside else "–"))
    say()
    alone = median("nearest place", "tunnel batch alone", "all cores", own=False)
    for where in ("local[1]", "local[2]", "cluster"):
        copy = median("Spark alone", "read the CSV, write Parquet", where)
        best_way = min(WAYS, key=lambda way: median("nearest place", way, where))
        best = median("nearest place", best_way, where)
        say("- Nearest place on %s: the fastest way, %s, %.2f s on the job's clock; the target, Spark's own copy "
            "(%.2f s) plus twice `tunnel batch` alone (2 × %.2f s), is %.2f s: %s." % (
                where, best_way, best, copy, alone, copy + 2 * alone,
                "met" if best <= copy + 2 * alone else "missed by %.2f s" % (best - copy - 2 * alone)))
    for where in ("local[2]", "cluster"):
        copy = median("Spark alone", "read the CSV, write Parquet", where)
        floor = median("Spark alone", "the same through mapInArrow, unchanged", where)
        say("- On %s, passing the rows through mapInArrow unchanged already costs %.2f s over Spark's own copy "
            "(%.2f s against %.2f s): the arrow way's floor before `tunnel` answers a row." % (
                where, floor - copy, floor, copy))
        written = median("Spark alone", "read `tunnel batch`'s answers, write Parquet", where)
        piped = median("nearest place", "pipe", where)
        say("- On %s, Spark's copy of `tunnel batch`'s nearest-place answers to typed Parquet takes %.2f s, %.2f s "
            "more than its copy of the points: the pipe way (%.2f s) is that copy plus %.2f s." % (
                where, written, written - copy, piped, piped - written))
    for label in ("nearest place", "every field"):
        best = min(median(label, way, "cluster") for way in WAYS)
        per_core = arguments.rows / best / CLUSTER_CORES
        hours = 1e9 / per_core / 3600
        say("- A billion rows, %s, at the cluster's measured rate (%s rows/s per core, Parquet out): %.1f "
            "core-hours; %.0f min on 100 cores, %.1f min on 1,000." % (
                label, format(int(per_core), ","), hours, hours * 60 / 100, hours * 60 / 1000))
    if arguments.out:
        with open(arguments.out, "w") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
