"""Tunnel's placemarks for more points than one machine holds: `tunnel batch` as a streaming filter under Spark.

    spark-submit [Spark options] tunnel_batch.py --input POINTS --output PLACEMARKS [options]

Reads points (CSV or Parquet, any column names), adds the placemark's columns to every row with `add_placemarks`
(tunnel_spark.py: one `tunnel batch` process per partition), and writes every input row with the placemark's
columns after its own (Parquet by default, CSV with --output-format csv). The `tunnel` binary and its data travel
with the job, so nothing has to be installed on the workers. `Scripts/spark-batch` sets all of this up and runs it
locally, or on a standalone cluster of its own with --cluster.

Rows and columns:
- Rows reach `tunnel` through mapInArrow (the default, for any input and output), only the coordinates sent and
  the answers joined back by position; or (--via transform) through Spark SQL's script transform, which runs no
  Python on the executors: every column carried through `tunnel batch` as percent-encoded text and cast back to
  its type (not timestamps, arrays or maps); or, for CSV read one row a line, (--via pipe, `placemarks_of_csv`)
  with each task's split of the file piped from the JVM, line for line, to one `tunnel batch`, and its CSV
  answers read back by Spark: no Python on the executors and no Spark row before the answers; or, for Parquet out
  to a local path that every executor sees, (--via files, `write_placemarks_of_csv`) the same pipe with `tunnel
  batch --format parquet` writing each task's file itself, moved into the output folder by the driver once every
  task has succeeded: Spark parses no row, the fastest way (Benchmarks/spark). Piped, each file's first line is
  its header (all the files of a folder must have the same one; a task that meets another fails, naming the
  file), and the output's columns are those `tunnel batch` writes for it. Every way `tunnel batch` writes exactly
  one row per row it reads, and a task whose `tunnel` does not end well fails.
- The coordinate columns are found as `tunnel batch` finds them (lat/latitude/y and lon/lng/long/longitude/x,
  or one column such as coordinate or location holding a whole coordinate), or named with --lat-column and
  --lon-column or --coordinate-column.
- A bad row (an unreadable coordinate, a latitude outside -90…90, an empty one) keeps its place with its
  problem in the `error` column, as in `tunnel batch`; the job counts them at the end and exits with status 65
  when there were any (0 with --allow-invalid). Usage errors exit 64, an input that cannot be read 66, an output
  that exists (without --overwrite) 74, a job whose task failed every retry 1. Read by Spark's own CSV reader, a
  row with too few fields reaches `tunnel` with an empty coordinate; piped, `tunnel` says so in its error column.
- A task whose `tunnel` dies fails and is retried by Spark; the output committer keeps one attempt's rows, so
  each input row is in the output exactly once.

Parquet keeps the placemark's numbers as numbers (doubles for degrees and kilometres, a long for population,
booleans for land and lake); CSV keeps `tunnel batch`'s text for them, digit for digit.
"""

import argparse
import os
import signal
import sys
import time

from tunnel_spark import (FIELDS, PARQUET_WAYS, InputError, OutputExists, UsageError, add_placemarks,
                          coordinate_columns, placemarks_of_csv, tunnel_and_data, write_placemarks_of_csv)


class ArgumentParser(argparse.ArgumentParser):
    """Usage errors exit 64, as `tunnel`'s do."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, "%s: error: %s\n" % (self.prog, message))


def parse_arguments(argv):
    parser = ArgumentParser(
        prog="tunnel_batch.py",
        description="Add Tunnel's placemarks to every row of a CSV or Parquet data set, under Spark.",
        epilog="Example: spark-submit --master local[2] tunnel_batch.py --input points.csv --output placemarks "
               "--fields nearestPlace --tunnel ~/.local/bin/tunnel")
    parser.add_argument("--input", required=True, help="a CSV or Parquet file or folder (any path Spark reads)")
    parser.add_argument("--output", required=True, help="the folder to write")
    parser.add_argument("--input-format", choices=("csv", "parquet"),
                        help="default: parquet for a path ending in .parquet or a folder of .parquet files, else csv")
    parser.add_argument("--output-format", choices=("parquet", "csv"), default="parquet")
    parser.add_argument("--lat-column", help="the column holding the latitude (a name or a number from 1)")
    parser.add_argument("--lon-column", help="the column holding the longitude (a name or a number from 1)")
    parser.add_argument("--coordinate-column", help="the column holding a whole coordinate, as '56.55 8.32'")
    parser.add_argument("--fields", help="the placemark's parts, comma-separated (default: all): " + ",".join(FIELDS))
    parser.add_argument("--antipode", action="store_true", help="add each point's antipode and its placemark")
    parser.add_argument("--precision", type=int, default=9, help="decimals for degrees (default 9)")
    parser.add_argument("--partitions", type=int,
                        help="repartition to this many before answering (default: as read; Spark splits a large "
                             "file into at least one partition per core)")
    parser.add_argument("--via", choices=PARQUET_WAYS,
                        help="how rows reach tunnel batch: mapInArrow (arrow, the default), each task's split of "
                             "the CSV piped to it from the JVM (pipe: CSV only, no Python on the executors), the "
                             "same with tunnel writing each task's Parquet file itself (files: CSV in, Parquet out "
                             "to a local path, the fastest) or Spark SQL's script transform (transform)")
    parser.add_argument("--tunnel", help="the tunnel binary to ship (default: tunnel on PATH)")
    parser.add_argument("--data", help="Tunnel's data folder to ship (default: the one installed beside the binary)")
    parser.add_argument("--multiline", action="store_true",
                        help="CSV input has quoted fields holding line breaks (each file is then read whole by one "
                             "task: repartition with --partitions)")
    parser.add_argument("--overwrite", action="store_true", help="replace the output folder if it exists")
    parser.add_argument("--allow-invalid", action="store_true", help="exit 0 even when some rows were bad")
    return parser.parse_args(argv)


def input_format(arguments):
    """csv or parquet: as given, else parquet for a path ending in .parquet or a folder of .parquet files."""
    if arguments.input_format:
        return arguments.input_format
    stripped = arguments.input.rstrip("/")
    return "parquet" if stripped.endswith(".parquet") or (
        os.path.isdir(stripped) and any(name.endswith(".parquet") for name in os.listdir(stripped))) else "csv"


def chosen_way(arguments):
    """How rows reach `tunnel batch`: as asked, else mapInArrow (the fastest on a cluster, Benchmarks/spark)."""
    csv_lines = input_format(arguments) == "csv" and not arguments.multiline
    if arguments.via in ("pipe", "files") and not csv_lines:
        raise UsageError("--via %s reads CSV one row a line: not %s; use --via arrow" % (
            arguments.via, "--multiline" if arguments.multiline else "Parquet"))
    if arguments.via == "files" and arguments.output_format != "parquet":
        raise UsageError("--via files writes Parquet (tunnel writes each task's file): not CSV; use --via pipe")
    return arguments.via or "arrow"


def read_input(spark, arguments):
    path = arguments.input
    if input_format(arguments) == "parquet":
        return spark.read.parquet(path)
    # Every column as text, as it is in the file: passed through unchanged.
    return csv_reader(spark).option("multiLine", arguments.multiline).csv(path)


def csv_reader(spark):
    """Spark's CSV reader for text as `tunnel batch` reads and writes it: a header, "" for a quote in quotes."""
    return spark.read.option("header", True).option("escape", '"')


def main(argv=None):
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        tunnel_and_data(arguments.tunnel, arguments.data)
        way = chosen_way(arguments)
    except UsageError as error:
        print("tunnel_batch: %s" % error, file=sys.stderr)
        return 64

    from pyspark.sql import SparkSession
    from pyspark.errors import AnalysisException

    spark = SparkSession.builder.appName("tunnel batch").getOrCreate()
    if way == "files":
        return write_files(spark, arguments)
    try:
        if way == "pipe":
            placemarks = placemarks_of_csv(spark, arguments.input, arguments.fields, arguments.antipode,
                                           columns=given_columns(arguments), precision=arguments.precision,
                                           text=arguments.output_format == "csv", tunnel=arguments.tunnel,
                                           data=arguments.data, partitions=arguments.partitions)
        else:
            points = read_input(spark, arguments)
            columns = coordinate_columns(points.columns, arguments.lat_column, arguments.lon_column,
                                         arguments.coordinate_column)
            if arguments.partitions:
                points = points.repartition(arguments.partitions)
            placemarks = add_placemarks(points, arguments.fields, arguments.antipode, columns=columns,
                                        precision=arguments.precision, text=arguments.output_format == "csv",
                                        tunnel=arguments.tunnel, data=arguments.data, via=way)
    except (InputError, UsageError, AnalysisException) as error:
        return setup_failed(spark, arguments, error)
    writer = placemarks.write.mode("overwrite" if arguments.overwrite else "errorifexists")
    started = time.monotonic()
    try:
        if arguments.output_format == "csv":
            writer.option("header", True).option("escape", '"').option("ignoreLeadingWhiteSpace", False).option(
                "ignoreTrailingWhiteSpace", False).csv(arguments.output)
            written = csv_reader(spark).option("multiLine", True).csv(arguments.output)
        else:
            writer.parquet(arguments.output)
            written = spark.read.parquet(arguments.output)
    except AnalysisException as error:  # the output folder exists, or cannot be made
        print("tunnel_batch: cannot write %s: %s%s" % (
            arguments.output, str(error).splitlines()[0],
            "; give --overwrite to replace it" if "ALREADY_EXISTS" in str(error) else ""), file=sys.stderr)
        spark.stop()
        return 74
    except Exception as error:  # a task failed more often than Spark retries it
        return job_failed(spark, error, way)
    seconds = time.monotonic() - started
    return conclude(spark, arguments, written, seconds)


def conclude(spark, arguments, written, seconds):
    """Counts the rows written and the bad ones, says so, stops Spark; the exit status."""
    from pyspark.sql import functions

    rows = written.count()
    bad = written.filter(functions.col("error").isNotNull() & (functions.col("error") != "")).count()
    spark.stop()
    print("tunnel_batch: %s rows answered in %.1f s (%s rows/s) into %s; %s" % (
        format(rows, ","), seconds, format(int(rows / seconds) if seconds > 0 else rows, ","), arguments.output,
        "%s bad (see the error column)" % format(bad, ",") if bad else "no bad rows"), file=sys.stderr)
    return 65 if bad and not arguments.allow_invalid else 0


def write_files(spark, arguments):
    """The "files" way: tunnel batch writes each task's Parquet file; the exit status."""
    from pyspark.errors import AnalysisException

    try:
        _, seconds = write_placemarks_of_csv(
            spark, arguments.input, arguments.output, arguments.fields, arguments.antipode,
            columns=given_columns(arguments), precision=arguments.precision, tunnel=arguments.tunnel,
            data=arguments.data, partitions=arguments.partitions, overwrite=arguments.overwrite)
    except OutputExists:
        print("tunnel_batch: cannot write %s: it exists; give --overwrite to replace it" % arguments.output,
              file=sys.stderr)
        spark.stop()
        return 74
    except (InputError, UsageError, AnalysisException) as error:
        return setup_failed(spark, arguments, error)
    except Exception as error:  # a task failed more often than Spark retries it
        return job_failed(spark, error, "files")
    return conclude(spark, arguments, spark.read.parquet(arguments.output), seconds)


def given_columns(arguments):
    """The coordinate's columns named by the options, for the pipe and files ways; None: found by name, as
    tunnel batch finds them."""
    if arguments.coordinate_column:
        return [arguments.coordinate_column]
    if arguments.lat_column or arguments.lon_column:
        return [arguments.lat_column, arguments.lon_column]
    return None


def setup_failed(spark, arguments, error):
    """Says why the job could not start (an input that cannot be read, 66; a usage error, 64), stops Spark; the
    exit status."""
    from pyspark.errors import AnalysisException

    if isinstance(error, UsageError):
        print("tunnel_batch: %s" % error, file=sys.stderr)
        status = 64
    else:  # a path that is not there, a file that is not CSV or Parquet, an empty one
        reason = str(error).splitlines()[0] if isinstance(error, AnalysisException) else error
        print("tunnel_batch: cannot read %s: %s" % (arguments.input, reason), file=sys.stderr)
        status = 66
    spark.stop()
    return status


def job_failed(spark, error, way):
    """Says why a task failed every retry (the first line that does), stops Spark; the exit status, 1."""
    cause = next((line.strip() for line in str(error).splitlines() if "Error:" in line), str(error).splitlines()[0])
    if way == "pipe" and "Malformed" in str(error):
        cause += (" (tunnel's answers for a row spanned lines: a quoted field of the input holds a line break; "
                  "give --multiline)")
    elif way in ("pipe", "files") and "Subprocess exited with status 3" in str(error):
        cause = "the input's files do not all have the same header (a task's log says which)"
    print("tunnel_batch: the job failed, nothing was written: %s" % cause, file=sys.stderr)
    spark.stop()
    return 1


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
