"""What Spark costs `tunnel batch`: the Spark job in local mode against `tunnel batch` alone, on the same points.

Usage: python bench.py --tunnel BINARY --data DIR --spark-submit PATH [--rows N] [--runs N] [--work DIR] [--out FILE]

For nearest place and for every field: `tunnel batch` alone (CSV to CSV), the job on `local[1]` and on
`local[2]` (CSV to Parquet), and, to show Spark's own share, a job that reads the same CSV and writes it to
Parquet untouched. Each is a whole process (spark-submit starts a JVM: about 5 s here); the job's own clock
(from the first row read to the last one written) is given beside it. Rounds interleave the commands.
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

JOB = os.path.join(ROOT, "Examples", "spark", "tunnel_batch.py")
COPY = os.path.join(HERE, "copy_job.py")


def run(command, output, work):
    """Wall seconds of one whole process, and the job's own seconds when it says them.

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
    return seconds, float(inside.group(1) or inside.group(2)) if inside else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tunnel", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--spark-submit", required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "spark", "bench"))
    parser.add_argument("--out")
    arguments = parser.parse_args()
    os.makedirs(arguments.work, exist_ok=True)
    source = os.path.join(arguments.work, "points-%d.csv" % arguments.rows)
    batch_bench.points(source, arguments.rows)
    output = os.path.join(arguments.work, "out")

    def job(master, fields):
        command = [arguments.spark_submit, "--master", master, "--conf", "spark.log.level=WARN", JOB,
                   "--tunnel", arguments.tunnel, "--data", arguments.data, "--input", source, "--output", output]
        return command + (["--fields", fields] if fields else [])

    commands = []
    for label, fields in (("nearest place", "nearestPlace"), ("every field", None)):
        alone = [arguments.tunnel, "batch", "--data", arguments.data] + (["--fields", fields] if fields else [])
        commands.append((label, "tunnel batch alone, all cores", alone + [source], None))
        commands.append((label, "Spark job, local[1]", job("local[1]", fields), output))
        commands.append((label, "Spark job, local[2]", job("local[2]", fields), output))
    commands.append(("Spark alone", "read the CSV, write Parquet, local[2]",
                     [arguments.spark_submit, "--master", "local[2]", "--conf", "spark.log.level=WARN", COPY, source,
                      output], output))
    results = {(label, name): [] for label, name, _, _ in commands}
    for round_number in range(arguments.runs):
        for label, name, command, out in commands:
            seconds, inside = run(command, out, arguments.work)
            results[(label, name)].append((seconds, inside))
            print("round %d  %-14s %-38s %7.2f s%s" % (
                round_number + 1, label, name, seconds, "" if inside is None else "  (job %.2f s)" % inside),
                file=sys.stderr)

    lines = []

    def say(text=""):
        lines.append(text)
        print(text)

    say("## Spark's cost: `tunnel batch` under Spark in local mode")
    say()
    say("%s; %s, %d cores, Linux %s; %s points uniform on the sphere; medians of %d rounds, measured by "
        "`Scripts/bench --spark --rows %d --runs %d`." % (
            time.strftime("%Y-%m-%d"), platform.machine(), os.cpu_count(), platform.release(),
            format(arguments.rows, ","), arguments.runs, arguments.rows, arguments.runs))
    say()
    say("| what | command | whole process | rows/s | the job's own clock | rows/s |")
    say("|---|---|---:|---:|---:|---:|")
    for label, name, _, _ in commands:
        samples = results[(label, name)]
        seconds = statistics.median(s for s, _ in samples)
        insides = [i for _, i in samples if i is not None]
        inside = statistics.median(insides) if insides else None
        say("| %s | %s | %.2f s | %s | %s | %s |" % (
            label, name, seconds, format(int(arguments.rows / seconds), ","),
            "%.2f s" % inside if inside else "–", format(int(arguments.rows / inside), ",") if inside else "–"))
    if arguments.out:
        with open(arguments.out, "w") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
