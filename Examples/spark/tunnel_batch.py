"""Tunnel's placemarks for more points than one machine holds: `tunnel batch` as a streaming filter under Spark.

    spark-submit [Spark options] tunnel_batch.py --input POINTS --output PLACEMARKS [options]

Reads points (CSV or Parquet, any column names), sends each partition's coordinates through one `tunnel batch`
process as CSV, and writes every input row with the placemark's columns after its own (Parquet by default, CSV
with --output-format csv). The `tunnel` binary and its data folder travel with the job (SparkContext.addFile), so
nothing has to be installed on the workers. `Scripts/spark-batch` sets all of this up and runs it locally.

Rows and columns:
- Only the coordinate columns go to `tunnel`; the others stay in Spark with their types and are joined back by
  position (`tunnel batch` writes exactly one row per row it reads, in order, and each partition checks that).
- The coordinate columns are found as `tunnel batch` finds them (lat/latitude/y and lon/lng/long/longitude/x,
  or one column such as coordinate or location holding a whole coordinate), or named with --lat-column and
  --lon-column or --coordinate-column.
- A bad row (an unreadable coordinate, a latitude outside -90…90, an empty one) keeps its place with its
  problem in the `error` column, as in `tunnel batch`; the job counts them at the end and exits with status 65
  when there were any (0 with --allow-invalid). Usage errors exit 64, an input that cannot be read 66, an output
  that exists (without --overwrite) 74, a job whose task failed every retry 1. Spark's own CSV reader splits the rows: a row with too few fields
  reaches `tunnel` with an empty coordinate.
- A task whose `tunnel` dies fails and is retried by Spark; the output committer keeps one attempt's rows, so
  each input row is in the output exactly once.

Parquet keeps the placemark's numbers as numbers (doubles for degrees and kilometres, a long for population,
booleans for land and lake); CSV keeps `tunnel batch`'s text for them, digit for digit.
"""

import argparse
import itertools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import deque

# The names `tunnel batch` recognises, compared without case (Sources/TunnelBatch/CoordinateColumns.swift).
LATITUDE_NAMES = {"lat", "latitude", "y", "lat_deg", "latitude_deg", "decimallatitude"}
LONGITUDE_NAMES = {"lon", "lng", "long", "longitude", "x", "lon_deg", "longitude_deg", "decimallongitude"}
COORDINATE_NAMES = {"coordinate", "coordinates", "coord", "coords", "location", "position", "point", "latlon",
                    "latlng", "lat_lon", "lat_lng", "lat/lon", "geo"}
FIELDS = ("land", "country", "region", "sea", "nearestPlace", "nearestLand", "timeZone")

# For the test of retries only: the first attempt of partition 0 kills its `tunnel` after its first batch.
KILL_FIRST_ATTEMPT = "TUNNEL_SPARK_KILL_FIRST_ATTEMPT"


class UsageError(Exception):
    """A problem with what the job was asked to do: said on one line, exit status 64."""


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
    parser.add_argument("--tunnel", help="the tunnel binary to ship (default: tunnel on PATH)")
    parser.add_argument("--data", help="Tunnel's data folder to ship (default: the one installed beside the binary)")
    parser.add_argument("--multiline", action="store_true",
                        help="CSV input has quoted fields holding line breaks (each file is then read whole by one "
                             "task: repartition with --partitions)")
    parser.add_argument("--overwrite", action="store_true", help="replace the output folder if it exists")
    parser.add_argument("--allow-invalid", action="store_true", help="exit 0 even when some rows were bad")
    return parser.parse_args(argv)


def tunnel_and_data(arguments):
    """The binary and data folder to ship, checked on the driver so that a wrong path fails before Spark starts."""
    binary = arguments.tunnel or shutil.which("tunnel")
    if not binary:
        raise UsageError("no tunnel binary: give --tunnel PATH, or install it (Scripts/install) and put it on PATH")
    binary = os.path.abspath(os.path.expanduser(binary))
    if not os.access(binary, os.X_OK) or os.path.isdir(binary):
        raise UsageError("'%s' is not an executable tunnel binary (--tunnel)" % binary)
    data = arguments.data or os.path.join(os.path.dirname(os.path.dirname(binary)), "share", "tunnel", "Data")
    data = os.path.abspath(os.path.expanduser(data))
    if not os.path.isfile(os.path.join(data, "places.tunnel")):
        raise UsageError("'%s' is not Tunnel's data folder (no places.tunnel); give --data DIR" % data)
    return binary, data


def coordinate_columns(columns, arguments):
    """The input columns to send: [latitude, longitude] or [coordinate], by the user's names, then the common ones."""
    folded = [name.strip().lower() for name in columns]

    def position(name, option):
        if name in columns:
            return name
        if name.strip().lower() in folded:
            return columns[folded.index(name.strip().lower())]
        if name.isdigit() and 1 <= int(name) <= len(columns):
            return columns[int(name) - 1]
        raise UsageError("%s '%s' is not a column of the input (its columns: %s)" % (
            option, name, ", ".join(columns)))

    def common(names):
        return next((columns[index] for index, name in enumerate(folded) if name in names), None)

    if arguments.coordinate_column:
        return [position(arguments.coordinate_column, "--coordinate-column")]
    if arguments.lat_column or arguments.lon_column:
        latitude = position(arguments.lat_column, "--lat-column") if arguments.lat_column else common(LATITUDE_NAMES)
        longitude = (position(arguments.lon_column, "--lon-column") if arguments.lon_column
                     else common(LONGITUDE_NAMES))
        if latitude is None or longitude is None:
            raise UsageError("name the %s column too (%s); the input's columns: %s" % (
                "latitude" if latitude is None else "longitude",
                "--lat-column" if latitude is None else "--lon-column", ", ".join(columns)))
        return [latitude, longitude]
    latitude, longitude = common(LATITUDE_NAMES), common(LONGITUDE_NAMES)
    if latitude is not None and longitude is not None:
        return [latitude, longitude]
    single = common(COORDINATE_NAMES)
    if single is not None:
        return [single]
    raise UsageError("no coordinate columns among %s: name them with --lat-column and --lon-column, or "
                     "--coordinate-column" % ", ".join(columns))


def tunnel_command(binary, data, arguments, threads):
    """`tunnel batch` reading and writing CSV on standard input and output."""
    command = [binary, "batch", "--input-format", "csv", "--format", "csv", "--data", data,
               "--precision", str(arguments.precision), "--threads", str(threads)]
    if arguments.fields:
        command += ["--fields", arguments.fields]
    if arguments.antipode:
        command.append("--antipode")
    return command


def sent_header(columns):
    return ["coordinate"] if len(columns) == 1 else ["latitude", "longitude"]


def added_columns(command, columns):
    """The columns `tunnel batch` adds, read from its header on one probe row (it also checks --fields)."""
    header = sent_header(columns)
    probe = ",".join(header) + "\n" + ("0 0" if len(header) == 1 else "0,0") + "\n"
    finished = subprocess.run(command, input=probe.encode(), capture_output=True)
    if finished.returncode != 0:
        message = finished.stderr.decode(errors="replace").strip().splitlines()
        raise UsageError(message[0] if message else "tunnel batch failed with status %d" % finished.returncode)
    first_line = finished.stdout.decode().splitlines()[0]
    return first_line.split(",")[len(header):]


def arrow_type(name, as_text):
    """The type of a column `tunnel batch` adds, by its name; CSV output keeps the text."""
    import pyarrow

    if as_text:
        return pyarrow.string()
    if name.endswith(("latitude", "longitude", "_km")):
        return pyarrow.float64()
    if name.endswith("population"):
        return pyarrow.int64()
    if name in ("land", "in_lake") or name.endswith(("_land", "_in_lake")):
        return pyarrow.bool_()
    return pyarrow.string()


class PartitionAnswerer:
    """Answers one partition's Arrow batches through one `tunnel batch` process; picklable, shipped to every task."""

    def __init__(self, command, columns, added, types):
        self.command = command
        self.columns = columns
        self.added = added
        self.types = types

    def __call__(self, batches):
        import pyarrow
        import pyarrow.csv as arrow_csv
        from pyspark import SparkFiles, TaskContext

        command = list(self.command)
        command[0] = SparkFiles.get(os.path.basename(command[0]))
        command[command.index("--data") + 1] = SparkFiles.get(os.path.basename(command[command.index("--data") + 1]))
        if not os.access(command[0], os.X_OK):
            os.chmod(command[0], 0o755)
        context = TaskContext.get()
        kill = (os.environ.get(KILL_FIRST_ATTEMPT) == "1" and context is not None
                and context.partitionId() == 0 and context.attemptNumber() == 0)

        batches = iter(batches)
        first = next(batches, None)
        while first is not None and first.num_rows == 0:
            first = next(batches, None)
        if first is None:
            return
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        pending = deque()  # input batches sent and not yet answered, oldest first
        lock = threading.Lock()
        failure = []
        sent_rows = [0]
        complaints = deque(maxlen=40)

        def send():
            try:
                header = True
                for batch in itertools.chain([first], batches):
                    if batch.num_rows == 0:
                        continue
                    with lock:
                        pending.append(batch)
                    coordinates = pyarrow.table(
                        [batch.column(batch.schema.get_field_index(name)).cast(pyarrow.string())
                         for name in self.columns], names=sent_header(self.columns))
                    arrow_csv.write_csv(coordinates, process.stdin,
                                        arrow_csv.WriteOptions(include_header=header, quoting_style="needed"))
                    header = False
                    sent_rows[0] += batch.num_rows
                    if kill:
                        process.kill()  # before the partition's end, so that it cannot have finished
                process.stdin.close()
            except BrokenPipeError:
                pass  # tunnel ended early; its status says why
            except BaseException as error:  # noqa: B036 (handed to the reading thread)
                failure.append(error)
                process.kill()

        def drain():
            for line in process.stderr:
                complaints.append(line.decode(errors="replace").rstrip("\n"))

        sender = threading.Thread(target=send, daemon=True)
        reader = threading.Thread(target=drain, daemon=True)
        sender.start()
        reader.start()
        answered = 0
        try:
            options = arrow_csv.ConvertOptions(
                column_types=dict(zip(self.added, self.types)), include_columns=self.added, strings_can_be_null=True,
                null_values=[""])  # only an empty field: "NA" is Namibia
            stream = arrow_csv.open_csv(process.stdout, read_options=arrow_csv.ReadOptions(block_size=1 << 22),
                                        parse_options=arrow_csv.ParseOptions(newlines_in_values=True),
                                        convert_options=options)
            for answers in stream:
                offset = 0
                while offset < answers.num_rows:
                    with lock:
                        rows = pending[0]
                    take = min(rows.num_rows, answers.num_rows - offset)
                    taken = rows.slice(0, take)
                    with lock:
                        if take == rows.num_rows:
                            pending.popleft()
                        else:
                            pending[0] = rows.slice(take)
                    part = answers.slice(offset, take)
                    yield pyarrow.RecordBatch.from_arrays(
                        list(taken.columns) + list(part.columns),
                        names=list(taken.schema.names) + self.added)
                    offset += take
                    answered += take
        except (pyarrow.ArrowInvalid, IndexError) as error:
            problem = error
        else:
            problem = None
        finally:
            # Also when Spark stops reading (a cancelled task): no tunnel left waiting on a full pipe.
            if process.poll() is None and (sys.exc_info()[0] is not None or answered != sent_rows[0]):
                process.kill()
        sender.join()
        status = process.wait()
        reader.join()
        said = " | ".join(line for line in complaints if ", line " not in line) or "no message"
        if failure:
            raise RuntimeError("sending rows to tunnel failed: %r" % failure[0])
        if status not in (0, 65):
            how = "was killed by signal %d" % -status if status < 0 else "exited with status %d" % status
            raise RuntimeError("tunnel batch %s after %d of %d rows: %s" % (how, answered, sent_rows[0], said))
        if problem is not None:
            raise RuntimeError("tunnel batch's output could not be read: %s (%s)" % (problem, said))
        if answered != sent_rows[0]:
            raise RuntimeError("tunnel batch answered %d of %d rows: %s" % (answered, sent_rows[0], said))


def read_input(spark, arguments):
    path = arguments.input
    kind = arguments.input_format
    if kind is None:
        stripped = path.rstrip("/")
        kind = "parquet" if stripped.endswith(".parquet") or (
            os.path.isdir(stripped) and any(name.endswith(".parquet") for name in os.listdir(stripped))) else "csv"
    if kind == "parquet":
        return spark.read.parquet(path)
    # Every column as text, as it is in the file: passed through unchanged.
    return csv_reader(spark).option("multiLine", arguments.multiline).csv(path)


def csv_reader(spark):
    """Spark's CSV reader for text as `tunnel batch` reads and writes it: a header, "" for a quote in quotes."""
    return spark.read.option("header", True).option("escape", '"')


def main(argv=None):
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        binary, data = tunnel_and_data(arguments)
    except UsageError as error:
        print("tunnel_batch: %s" % error, file=sys.stderr)
        return 64

    import pyarrow
    from pyspark.sql import SparkSession
    from pyspark.sql import functions
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.sql.types import StructType
    from pyspark.errors import AnalysisException

    spark = SparkSession.builder.appName("tunnel batch").getOrCreate()
    context = spark.sparkContext
    try:
        points = read_input(spark, arguments)
        columns = coordinate_columns(points.columns, arguments)
        threads = int(context.getConf().get("spark.task.cpus", "1"))
        command = tunnel_command(binary, data, arguments, threads)
        added = added_columns(command, columns)
        clash = sorted(set(added) & set(points.columns))
        if clash:
            raise UsageError("the input already has column(s) %s, which tunnel adds: rename them first" % (
                ", ".join(clash)))
    except UsageError as error:
        print("tunnel_batch: %s" % error, file=sys.stderr)
        spark.stop()
        return 64
    except AnalysisException as error:  # a path that is not there, a file that is not CSV or Parquet
        print("tunnel_batch: cannot read %s: %s" % (arguments.input, str(error).splitlines()[0]), file=sys.stderr)
        spark.stop()
        return 66
    types = [arrow_type(name, arguments.output_format == "csv") for name in added]
    # A new schema: StructType.add would change the input DataFrame's own (cached) one.
    schema = StructType(list(points.schema.fields) + from_arrow_schema(pyarrow.schema(list(zip(added, types)))).fields)

    context.addFile(binary)
    context.addFile(data, recursive=True)
    if arguments.partitions:
        points = points.repartition(arguments.partitions)
    placemarks = points.mapInArrow(PartitionAnswerer(command, columns, added, types), schema)
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
    except Exception as error:  # a task failed more often than Spark retries it; the first line says why
        cause = next((line.strip() for line in str(error).splitlines() if "Error:" in line), str(error).splitlines()[0])
        print("tunnel_batch: the job failed, nothing was written: %s" % cause, file=sys.stderr)
        spark.stop()
        return 1
    seconds = time.monotonic() - started
    rows = written.count()
    bad = written.filter(functions.col("error").isNotNull() & (functions.col("error") != "")).count()
    spark.stop()
    print("tunnel_batch: %s rows answered in %.1f s (%s rows/s) into %s; %s" % (
        format(rows, ","), seconds, format(int(rows / seconds) if seconds > 0 else rows, ","), arguments.output,
        "%s bad (see the error column)" % format(bad, ",") if bad else "no bad rows"), file=sys.stderr)
    return 65 if bad and not arguments.allow_invalid else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
