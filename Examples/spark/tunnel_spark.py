"""Tunnel's placemarks as a DataFrame function: `add_placemarks(df)` runs `tunnel batch` beside every partition.

    import sys; sys.path.insert(0, "Examples/spark")
    from tunnel_spark import add_placemarks

    points = spark.read.option("header", True).csv("points.csv")
    placemarks = add_placemarks(points, fields="nearestPlace,country", tunnel="dist/bin/tunnel")
    placemarks.select("id", "nearest_place", "nearest_place_km").show()

Every row of the DataFrame comes back once, its own columns first and unchanged, then the columns `tunnel batch`
adds, typed (doubles for degrees and kilometres, a long for population, booleans for land and lake, text for the
rest; a field tunnel leaves empty is null). A bad row (an unreadable coordinate, a latitude outside -90…90, a null)
keeps its place with its problem in the `error` column. The `tunnel` binary and its data travel with the job (the
binary with SparkContext.addFile, the data as a tar with addArchive), so the executors need nothing installed.

Rows reach `tunnel batch` in one of two ways, the same answers either way:
- "transform": Spark SQL's script transform (`SELECT TRANSFORM(…) USING 'tunnel batch …'`) pipes each
  partition's rows from the JVM to one `tunnel batch` process as TSV and reads its TSV back, with no Python on the
  executors. Every column travels through `tunnel` (which passes a row's own columns through unchanged): text
  escaped as `tunnel batch` escapes TSV, with a mark that tells null from empty, and numbers, booleans, decimals
  and dates as Spark's text for them, which casts back to the same value.
- "arrow": `mapInArrow`, a Python worker per task sending only the coordinate columns to `tunnel batch` as CSV
  and joining the answers back to the Arrow batches by position. Any column type passes through untouched.
The default is "arrow".

For a CSV file (or a folder of them) there is a third way, `placemarks_of_csv(spark, path, …)`, "pipe": each
task's split of the file goes from the JVM straight to `tunnel batch`, line for line, with no Python worker and no
Spark row before the answers, and Spark reads `tunnel batch`'s CSV back. And a fourth,
`write_placemarks_of_csv(spark, path, output, …)`, "files", for Parquet out: the same pipe, but `tunnel batch`
writes each task's Parquet file itself (`--format parquet`), so Spark parses nothing at all.
"""

import csv
import os
import shlex
import shutil
import subprocess
import tarfile
import tempfile
import time
import uuid

# The names `tunnel batch` recognises, as folded by `folded_name` (Sources/TunnelBatch/CoordinateColumns.swift,
# whose rule this follows: never a guess between two columns that could both be the latitude or the longitude).
LATITUDE_NAMES = {"lat", "latitude", "decimallatitude", "latitud", "latitudine", "breite", "breitengrad", "широта",
                  "緯度", "纬度"}
LONGITUDE_NAMES = {"lon", "lng", "long", "longitude", "decimallongitude", "longitud", "longitudine", "länge", "laenge",
                   "längengrad", "laengengrad", "долгота", "経度", "经度"}
COORDINATE_NAMES = {"coordinate", "coordinates", "coord", "coords", "location", "position", "point", "latlon",
                    "latlng", "lat_lon", "lat_lng", "lat/lon", "geo"}
# A latitude and a longitude only when a header has both.
PAIR_ONLY_NAMES = ("y", "x")
UNIT_SUFFIXES = ("degrees", "degree", "deg", "dd", "°")
FIELDS = ("land", "country", "region", "subregion", "sea", "nearestPlace", "nearestLand", "timeZone", "boundaryKm")
WAYS = ("transform", "arrow")
# The ways a CSV file's rows can reach `tunnel batch` (tunnel_batch.py's --via): also each task's split of the file
# piped to it from the JVM, no Python on the executors and no Spark rows before the answers.
FILE_WAYS = ("pipe",) + WAYS
# And for Parquet output only: each task's split piped to `tunnel batch`, which writes the task's Parquet file itself.
PARQUET_WAYS = ("files",) + FILE_WAYS

# The shipped data folder's name on the executors: SparkContext.addArchive unpacks it into a folder of this name.
DATA_ARCHIVE = "tunnel-data.tar"

# For the test of retries only (the "arrow" way): the first attempt of partition 0 kills its `tunnel` after its
# first batch.
KILL_FIRST_ATTEMPT = "TUNNEL_SPARK_KILL_FIRST_ATTEMPT"


class UsageError(Exception):
    """A problem with what was asked (a column that is not there, a field tunnel does not know): said on one line."""


def add_placemarks(df, fields=None, antipode=False, *, columns=None, precision=9, text=False, tunnel=None,
                   data=None, via=None):
    """`df` with Tunnel's placemark for each row's coordinate added as columns.

    Args:
        df: a DataFrame holding a coordinate in each row.
        fields: the placemark's parts, comma-separated or a list (default: all): land, country, region,
            subregion, sea, nearestPlace, nearestLand, timeZone, boundaryKm. "nearestPlace" alone is the fastest.
        antipode: also add each point's antipode and the same fields for it.
        columns: the coordinate's column(s): (latitude, longitude), or one column holding a whole coordinate such
            as "56.55 8.32" (default: found by name, as `tunnel batch` finds them: lat/latitude/… and
            lon/lng/long/longitude/…, y and x only as a pair, else coordinates/coord/location/…; more than one
            column that could be the latitude or the longitude is refused, naming them).
        precision: decimals for degrees (kilometres get three fewer); 9, the default, is 0.1 mm.
        text: keep `tunnel batch`'s text for every added column, digit for digit, instead of typed values.
        tunnel: the `tunnel` binary to ship (default: `tunnel` on PATH).
        data: Tunnel's data folder to ship (default: the one installed beside the binary).
        via: "arrow" or "transform", how rows reach `tunnel batch` (default: "arrow", the faster by measurement
            locally and on a cluster; "transform" runs no Python on the executors; see the module's description).

    Returns:
        A DataFrame with df's columns, then the added ones (their names as `tunnel batch` writes them:
        nearest_place, nearest_place_km, country_code, …, error). Lazy, as any DataFrame: nothing runs until
        it is written or collected.

    Raises:
        UsageError: no such column, no coordinate columns found, a column tunnel would add is already there, an
            unknown field, no tunnel binary or data.

    Example:
        >>> points = spark.createDataFrame([("cph", 55.68, 12.57)], "id string, lat double, lon double")
        >>> placemarks = add_placemarks(points, fields="nearestPlace", tunnel=".build/spark/prefix/bin/tunnel")
        >>> placemarks.select("id", "nearest_place", "nearest_place_country", "nearest_place_km").first()
        Row(id='cph', nearest_place='Indre By', nearest_place_country='DK', nearest_place_km=0.316424)
    """
    binary, data = tunnel_and_data(tunnel, data)
    if columns is None:
        columns = coordinate_columns(df.columns)
    elif isinstance(columns, str):
        columns = [columns]
    columns = list(columns)
    if len(columns) not in (1, 2) or any(name not in df.columns for name in columns):
        raise UsageError("columns: give (latitude, longitude) or one coordinate column, among %s; not %r" % (
            ", ".join(df.columns), columns))
    if not isinstance(fields, (str, type(None))):
        fields = ",".join(fields)
    spark = df.sparkSession
    threads = int(spark.sparkContext.getConf().get("spark.task.cpus", "1"))
    options = batch_options(fields, antipode, precision, threads)
    added = added_columns([binary, "batch", "--data", data] + options, columns)
    clash = sorted(set(added) & set(df.columns))
    if clash:
        raise UsageError("the input already has column(s) %s, which tunnel adds: rename them first" % ", ".join(clash))
    way = via or "arrow"
    if way not in WAYS:
        raise UsageError("via: 'transform' or 'arrow', not %r" % (way,))
    if way == "transform" and not all(transform_carries(field.dataType) for field in df.schema.fields):
        raise UsageError("via='transform' carries text, numbers, booleans, decimals and dates; use via='arrow'")
    ship(spark.sparkContext, binary, data)
    kinds = [added_type(name, text) for name in added]
    if way == "transform":
        return through_transform(df, columns, os.path.basename(binary), options, added, kinds)
    return through_arrow(df, columns, os.path.basename(binary), options, added, kinds)


def tunnel_and_data(binary=None, data=None):
    """The binary and data folder to ship, checked on the driver so that a wrong path fails before Spark starts."""
    binary = binary or shutil.which("tunnel")
    if not binary:
        raise UsageError("no tunnel binary: give its path, or install it (Scripts/install) and put it on PATH")
    binary = os.path.abspath(os.path.expanduser(binary))
    if not os.access(binary, os.X_OK) or os.path.isdir(binary):
        raise UsageError("'%s' is not an executable tunnel binary" % binary)
    data = data or os.path.join(os.path.dirname(os.path.dirname(binary)), "share", "tunnel", "Data")
    data = os.path.abspath(os.path.expanduser(data))
    if not os.path.isfile(os.path.join(data, "places.tunnel")):
        raise UsageError("'%s' is not Tunnel's data folder (no places.tunnel)" % data)
    return binary, data


def coordinate_columns(columns, latitude=None, longitude=None, coordinate=None):
    """The columns to send: [latitude, longitude] or [coordinate], by the names given, then by their names as
    `tunnel batch` chooses them, never guessing: more than one candidate for a column is a UsageError naming them.

    A name given matches without case, or is a column's number from 1.
    """
    folded = [name.strip().lower() for name in columns]

    def position(name, what):
        if name in columns:
            return name
        if name.strip().lower() in folded:
            return columns[folded.index(name.strip().lower())]
        if name.isdigit() and 1 <= int(name) <= len(columns):
            return columns[int(name) - 1]
        raise UsageError("%s '%s' is not a column of the input (its columns: %s)" % (what, name, ", ".join(columns)))

    folded_names = [folded_name(name) for name in columns]

    def candidates(names, pair_only=None):
        found = [index for index, name in enumerate(folded_names) if name in names]
        if pair_only and all(name in folded_names for name in PAIR_ONLY_NAMES):
            found = sorted(found + [index for index, name in enumerate(folded_names) if name == pair_only])
        return [columns[index] for index in found]

    def refuse(doubts):
        told = " and ".join("more than one column could %s (%s)" % (
            "hold the whole coordinate" if what == "coordinate" else "be the " + what, ", ".join(names))
            for what, names, _ in doubts)
        raise UsageError("%s; choose with %s" % (told, " and ".join(option for _, _, option in doubts)))

    latitudes = candidates(LATITUDE_NAMES, PAIR_ONLY_NAMES[0])
    longitudes = candidates(LONGITUDE_NAMES, PAIR_ONLY_NAMES[1])
    if coordinate:
        return [position(coordinate, "--coordinate-column")]
    if latitude or longitude:
        doubts = [(what, names, option) for what, names, option, given in [
            ("latitude", latitudes, "--lat-column", latitude), ("longitude", longitudes, "--lon-column", longitude)]
            if not given and len(names) > 1]
        if doubts:
            refuse(doubts)
        found_latitude = position(latitude, "--lat-column") if latitude else next(iter(latitudes), None)
        found_longitude = position(longitude, "--lon-column") if longitude else next(iter(longitudes), None)
        if found_latitude is None or found_longitude is None:
            raise UsageError("name the %s column too (%s); the input's columns: %s" % (
                "latitude" if found_latitude is None else "longitude",
                "--lat-column" if found_latitude is None else "--lon-column", ", ".join(columns)))
        return [found_latitude, found_longitude]
    if latitudes and longitudes:
        doubts = [(what, names, option) for what, names, option in [
            ("latitude", latitudes, "--lat-column"), ("longitude", longitudes, "--lon-column")] if len(names) > 1]
        if doubts:
            refuse(doubts)
        return [latitudes[0], longitudes[0]]
    singles = candidates(COORDINATE_NAMES)
    if len(singles) > 1:
        refuse([("coordinate", singles, "--coordinate-column")])
    if singles:
        return singles
    raise UsageError("no coordinate columns among %s: name them with --lat-column and --lon-column, or "
                     "--coordinate-column" % ", ".join(columns))


def folded_name(name):
    """A column's name as `tunnel batch` compares it: trimmed, without case, without a trailing full stop or a unit
    in brackets (`Lat.`, `latitude (deg)`), and without a degrees suffix after a space, `_` or `-` (`LATITUDE_DD`)."""
    text = name.lower().strip()
    if text[-1:] in (")", "]"):
        opening = text.rfind("(" if text[-1] == ")" else "[")
        if opening > 0:
            text = text[:opening].strip()
    text = text.rstrip(".")
    for unit in UNIT_SUFFIXES:
        for separator in ("_", " ", "-", ""):
            if text.endswith(separator + unit) and len(text) > len(separator + unit) and (separator or unit == "°"):
                return text[:-len(separator + unit)].strip()
    return text


def batch_options(fields, antipode, precision, threads):
    """`tunnel batch`'s options after `--data`, the same for the probe on the driver and for every task."""
    options = ["--precision", str(precision), "--threads", str(threads)]
    if fields:
        options += ["--fields", fields]
    if antipode:
        options.append("--antipode")
    return options


def sent_header(columns):
    """The header of the coordinate columns as they are sent to `tunnel batch`, which finds them by these names."""
    return ["coordinate"] if len(columns) == 1 else ["latitude", "longitude"]


def added_columns(command, columns):
    """The columns `tunnel batch` adds, read from the header it writes (it also checks the fields)."""
    header = sent_header(columns)
    return header_written(command + ["--input-format", "csv", "--format", "csv"], ",".join(header))[len(header):]


def header_written(command, header):
    """The header `tunnel batch` writes for input with this header (its own names for the input's columns, then the
    added ones), asked of it with no row; its refusal (a column named twice, an unknown field) is a UsageError."""
    finished = subprocess.run(command, input=(header + "\n").encode(), capture_output=True)
    if finished.returncode != 0 or not finished.stdout:
        message = finished.stderr.decode(errors="replace").strip().splitlines()
        raise UsageError(message[0] if message else "tunnel batch failed with status %d" % finished.returncode)
    return next(csv.reader([finished.stdout.decode().splitlines()[0]]))


def added_type(name, as_text):
    """The Spark SQL type of a column `tunnel batch` adds, by its name; as_text keeps the text."""
    if as_text:
        return "string"
    if name.endswith(("latitude", "longitude", "_km")):
        return "double"
    if name.endswith("population"):
        return "bigint"
    if name in ("land", "in_lake") or name.endswith(("_land", "_in_lake")):
        return "boolean"
    return "string"


def transform_carries(kind):
    """Whether the script transform carries a column of this type exactly: as text that casts back to it."""
    from pyspark.sql import types

    return isinstance(kind, (types.StringType, types.ByteType, types.ShortType, types.IntegerType, types.LongType,
                             types.FloatType, types.DoubleType, types.DecimalType, types.BooleanType,
                             types.DateType))


def ship(context, binary, data):
    """Sends the binary (addFile) and the data folder, as a tar (addArchive: Spark ships no folders to a cluster),
    to every executor, once per Spark context."""
    if os.path.basename(binary) not in {os.path.basename(path) for path in context.listFiles}:
        context.addFile(binary)
    if DATA_ARCHIVE not in {os.path.basename(path) for path in context.listArchives}:
        folder = tempfile.mkdtemp(prefix="tunnel-spark-")
        archive = os.path.join(folder, DATA_ARCHIVE)
        with tarfile.open(archive, "w") as tar:
            tar.add(data, arcname="Data")
        context.addArchive(archive)


def shipped(name):
    """Where a shipped file or unpacked archive is on this executor (or, in local mode, on the driver)."""
    from pyspark import SparkFiles

    return SparkFiles.get(name)


def through_arrow(df, columns, binary, options, added, kinds):
    """The "arrow" way: mapInArrow, each task's Python worker piping the coordinates through one `tunnel batch`."""
    from pyspark import cloudpickle
    from pyspark.sql.types import StructType
    import sys

    # Executors have no copy of this module: its functions travel by value, as a script's would.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    schema = StructType(list(df.schema.fields) + StructType.fromDDL(
        ", ".join("`%s` %s" % (name, kind) for name, kind in zip(added, kinds))).fields)
    return df.mapInArrow(PartitionAnswerer(binary, options, columns, added, kinds), schema)


class PartitionAnswerer:
    """Answers one partition's Arrow batches through one `tunnel batch` process; picklable, shipped to every task."""

    def __init__(self, binary, options, columns, added, kinds):
        self.binary = binary
        self.options = options
        self.columns = columns
        self.added = added
        self.kinds = kinds

    def __call__(self, batches):
        import itertools
        import sys
        import threading
        from collections import deque

        import pyarrow
        import pyarrow.csv as arrow_csv
        from pyspark import TaskContext

        binary = shipped(self.binary)
        if not os.access(binary, os.X_OK):
            os.chmod(binary, 0o755)
        command = [binary, "batch", "--data", os.path.join(shipped(DATA_ARCHIVE), "Data"), "--input-format", "csv",
                   "--format", "csv"] + self.options
        arrow_types = {"double": pyarrow.float64(), "bigint": pyarrow.int64(), "boolean": pyarrow.bool_(),
                       "string": pyarrow.string()}
        types = [arrow_types[kind] for kind in self.kinds]
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
            convert = arrow_csv.ConvertOptions(
                column_types=dict(zip(self.added, types)), include_columns=self.added, strings_can_be_null=True,
                null_values=[""])  # only an empty field: "NA" is Namibia
            stream = arrow_csv.open_csv(process.stdout, read_options=arrow_csv.ReadOptions(block_size=1 << 22),
                                        parse_options=arrow_csv.ParseOptions(newlines_in_values=True),
                                        convert_options=convert)
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


def placemarks_of_csv(spark, path, fields=None, antipode=False, *, columns=None, precision=9, text=False,
                      tunnel=None, data=None, partitions=None):
    """The "pipe" way: a CSV file's (or folder's) rows with Tunnel's placemark added, each task handing its split of
    the file, line for line, straight to one `tunnel batch` from the JVM (no Python worker, no Spark row before the
    answers), and Spark reading `tunnel batch`'s CSV back: what the job costs is about Spark's own copy of the answers
    plus `tunnel batch` itself.

    Args:
        spark: the SparkSession.
        path: a CSV file, a folder of CSV files with the same header, or a glob (any path Hadoop reads). The first
            line of each file is its header. One row per line: a quoted field holding a line break is one the JVM
            splits (use add_placemarks on Spark's CSV reader with multiLine for those).
        fields, antipode, precision, tunnel, data: as add_placemarks.
        columns: (latitude, longitude) or one coordinate column, by name or number from 1 (default: found by name
            as `tunnel batch` finds them).
        text: keep `tunnel batch`'s text for every added column.
        partitions: at least this many tasks (default: one per core, and one per block of the file).

    Returns:
        A DataFrame with the columns `tunnel batch` writes for this file, in its order and with its names (the
        input's own columns as text, as Spark's CSV reader gives them; a name it shares with an added column
        becomes tunnel_…), then the added ones, typed as add_placemarks types them.

    Raises:
        UsageError: no such column, no coordinate columns, an unknown field, a first line that is not a header
            (Excel's sep= or a # comment), no tunnel binary or data.
    """
    from pyspark.sql import DataFrame
    from pyspark.sql.types import StructType

    jvm = spark.sparkContext._jvm
    lines, header, written, added, script = csv_pipe(spark, path, fields, antipode, columns, precision, tunnel, data,
                                                     partitions, "csv")
    kept = written[:len(written) - len(added)]
    answers = lines.pipe(["/bin/bash", "-c", script], pipe_environment(header), False, 1 << 16, "UTF-8")
    strings = spark._jsparkSession.createDataset(answers.rdd(), jvm.org.apache.spark.sql.Encoders.STRING())
    schema = StructType.fromDDL(", ".join("%s %s" % (quoted(name), kind) for name, kind in zip(
        written, ["string"] * len(kept) + [added_type(name, text) for name in added])))
    reader = spark._jsparkSession.read().schema(jvm.org.apache.spark.sql.types.DataType.fromJson(schema.json()))
    for key, value in (("header", "false"), ("escape", '"'), ("mode", "FAILFAST"), ("nullValue", "")):
        reader = reader.option(key, value)
    return DataFrame(reader.csv(strings), spark)


def write_placemarks_of_csv(spark, path, output, fields=None, antipode=False, *, columns=None, precision=9,
                            tunnel=None, data=None, partitions=None, overwrite=False):
    """The "files" way: a CSV file's (or folder's) rows with Tunnel's placemark added, written as Parquet to `output`
    by `tunnel batch` itself. Each task hands its split of the file from the JVM to one `tunnel batch --format
    parquet` (as the "pipe" way does), which writes the task's file; Spark parses no row. What the job costs is about
    Spark reading the file's lines plus `tunnel batch` itself.

    The files are those the "pipe" way's DataFrame would be written as: the same columns, names and types (the
    input's columns as strings, an empty value null). Each task writes into `output`/_temporary; once every task has
    succeeded, the driver moves one file per task to `output`/part-NNNNN.parquet (in the input's order) and writes
    `_SUCCESS`, so a failed or retried attempt leaves nothing behind. `tunnel` writes the files with the executor's
    own file system calls: `output` must be a local path that every executor and the driver see (local mode, or a
    cluster of one machine or with a shared mount), not an HDFS or object store path.

    Args:
        spark, path, fields, antipode, columns, precision, tunnel, data, partitions: as placemarks_of_csv.
        output: the folder to write.
        overwrite: replace `output` if it exists (else an OutputExists error).

    Returns:
        The number of files written, and the seconds from handing the splits to the tasks to the last file
        moved (the job itself; the header read, the options checked and the binary and data shipped before).

    Raises:
        UsageError: as placemarks_of_csv, and an output that is not a local path.
        OutputExists: `output` exists and overwrite is false.
    """
    if "://" in output and not output.startswith("file:"):
        raise UsageError("the files way writes with tunnel itself: %s is not a local path (use --via pipe or arrow)"
                         % output)
    folder = os.path.abspath(output[len("file:"):] if output.startswith("file:") else output)
    if os.path.exists(folder) and not overwrite:
        raise OutputExists(folder)
    # The header and options checked before anything is replaced.
    lines, header, _, _, script = csv_pipe(spark, path, fields, antipode, columns, precision, tunnel, data,
                                           partitions, "parquet")
    if os.path.exists(folder):
        shutil.rmtree(folder)
    temporary = os.path.join(folder, "_temporary", uuid.uuid4().hex)
    os.makedirs(temporary)
    environment = pipe_environment(header)
    environment["TUNNEL_OUTPUT"] = temporary
    started = time.monotonic()
    try:
        written = list(lines.pipe(["/bin/bash", "-c", script], environment, False, 1 << 16, "UTF-8").collect())
        for index, name in enumerate(written):
            if not name.startswith(temporary + os.sep):
                raise RuntimeError("a task named %r as its file" % name)
            os.rename(name, os.path.join(folder, "part-%05d.parquet" % index))
        with open(os.path.join(folder, "_SUCCESS"), "w"):
            pass
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(os.path.join(folder, "_temporary"), ignore_errors=True)
    return len(written), time.monotonic() - started


class OutputExists(Exception):
    """The output folder exists, and nothing said to replace it."""


def csv_pipe(spark, path, fields, antipode, columns, precision, tunnel, data, partitions, output_format):
    """What the "pipe" and "files" ways share: the (offset, line) pairs of the file's splits, its header, the
    columns `tunnel batch` writes (all, then the added ones) and the task's script, the binary and data shipped."""
    binary, data = tunnel_and_data(tunnel, data)
    context = spark.sparkContext
    jvm = context._jvm
    java_class = jvm.java.lang.Class.forName
    minimum = max(context.defaultParallelism, partitions or 0)
    # (offset, line) pairs: the line at offset 0 of each file is that file's header, wherever the split falls.
    lines = context._jsc.hadoopFile(path, java_class("org.apache.hadoop.mapred.TextInputFormat"),
                                    java_class("org.apache.hadoop.io.LongWritable"),
                                    java_class("org.apache.hadoop.io.Text"), minimum)
    header = first_line(context, path)
    if header.lstrip("\ufeff").startswith(("sep=", "#")):
        raise UsageError("the first line of %s is not a header (%r); give the header first, or use --via arrow" % (
            path, header[:80]))
    if columns is not None:
        columns = [columns] if isinstance(columns, str) else list(columns)
    if not isinstance(fields, (str, type(None))):
        fields = ",".join(fields)
    threads = int(context.getConf().get("spark.task.cpus", "1"))
    options = batch_options(fields, antipode, precision, threads) + column_options(columns)
    command = [binary, "batch", "--data", data, "--input-format", "csv", "--format", "csv"]
    # `tunnel batch` reads the header as it will in every task: its separator, its coordinate columns (found by
    # name, or as given), and its refusals, in its own words.
    written = header_written(command + options, header)
    # Its added columns come after the input's, as many as for any input (here they may be named tunnel_…).
    probe = header_written(command + batch_options(fields, antipode, precision, threads), "latitude,longitude")
    added = written[len(written) - (len(probe) - 2):]
    ship(context, binary, data)
    template = PIPE_SCRIPT if output_format == "csv" else FILES_SCRIPT
    script = template.format(binary=os.path.basename(binary), archive=DATA_ARCHIVE,
                             options=" ".join(map(shlex.quote, options + ["--format", output_format])))
    return lines, header, written, added, script


def pipe_environment(header):
    """The task script's environment: the header, and where the shipped files are when the task's directory does
    not have them (local mode, whose tasks run in the driver's directory, where its file server puts them)."""
    from pyspark import SparkFiles

    return {"TUNNEL_HEADER": header, "TUNNEL_FILES": SparkFiles.getRootDirectory(), "LC_ALL": "C"}


# What the "pipe" and "files" ways' tasks start with, run by bash with the split's (offset,line) pairs on standard
# input: the shipped files found, then the header and every line but a file's first (offset 0, which must be the
# header) piped to `tunnel batch` in the way's format. Its words on each bad row are left out of the task's log
# (their line numbers count from the split's start, and the error column says the same); anything else it says is
# kept.
TASK_START = r"""set -o pipefail
dir=.
[ -f "./{binary}" ] && [ -d "./{archive}" ] || dir="$TUNNEL_FILES"
[ -x "$dir/{binary}" ] || chmod +x "$dir/{binary}"
"""
TASK_PIPE = r"""awk 'BEGIN {{ header = ENVIRON["TUNNEL_HEADER"]; print header }}
{{
  comma = index($0, ",")
  line = substr($0, comma + 1, length($0) - comma - 1)
  if (substr($0, 2, comma - 2) != "0") print line
  else if (line != header) {{
    file = ENVIRON["map_input_file"] ? ENVIRON["map_input_file"] : "a file of the input"
    print "tunnel: " file " has another header: " line > "/dev/stderr"
    exit 3
  }}
}}' | "$dir/{binary}" batch --data "$dir/{archive}/Data" --input-format csv {options} \
  2> >(grep -v -e ', line [0-9]' -e ' bad (see the error column)$' >&2)"""

# One task of the "pipe" way: `tunnel batch`'s CSV without its header; its status 65 (some rows were bad, which
# their error column says) is success.
PIPE_SCRIPT = TASK_START + TASK_PIPE + r""" | tail -n +2
status=$?
[ $status -eq 65 ] && exit 0
exit $status
"""

# One task of the "files" way: `tunnel batch` writes Parquet into a file of its own in $TUNNEL_OUTPUT, a name no
# other attempt has (noclobber refuses one that exists; the file made as the umask says), which is the task's one
# line of output; a task that fails removes its file.
FILES_SCRIPT = TASK_START + r"""set -o noclobber
file="$TUNNEL_OUTPUT/part-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ').parquet"
""" + TASK_PIPE + r""" > "$file"
status=$?
if [ $status -ne 0 ] && [ $status -ne 65 ]; then rm -f "$file"; exit $status; fi
echo "$file"
"""


def column_options(columns):
    """`tunnel batch`'s options naming the coordinate columns given, by name or number: [coordinate] or
    [latitude, longitude], either of which may be None (none given: it finds them by name)."""
    if not columns:
        return []
    if len(columns) == 1:
        return ["--coordinate-column", str(columns[0])]
    return [word for option, name in zip(("--lat-column", "--lon-column"), columns) if name is not None
            for word in (option, str(name))]


class InputError(Exception):
    """An input that cannot be read: not there, empty, or not readable."""


def first_line(context, path):
    """The first line of the input's first file (by name; a folder's files starting with _ or . are not data, as
    Hadoop's readers skip them), decompressed as Hadoop reads it; every file's is checked against it by its task."""
    jvm = context._jvm
    configuration = context._jsc.hadoopConfiguration()
    pattern = jvm.org.apache.hadoop.fs.Path(path)
    system = pattern.getFileSystem(configuration)
    files = []
    for status in system.globStatus(pattern) or []:
        if status.isDirectory():
            files += [inside for inside in system.listStatus(status.getPath()) if inside.isFile()
                      and not inside.getPath().getName().startswith(("_", "."))]
        else:
            files.append(status)
    if not files:
        raise InputError("no file at %s" % path)
    file = min((status.getPath() for status in files), key=lambda name: name.toString())
    stream = system.open(file)
    codec = jvm.org.apache.hadoop.io.compress.CompressionCodecFactory(configuration).getCodec(file)
    if codec is not None:
        stream = codec.createInputStream(stream)
    reader = jvm.java.io.BufferedReader(jvm.java.io.InputStreamReader(stream, "UTF-8"))
    try:
        line = reader.readLine()
    finally:
        reader.close()
    if line is None:
        raise InputError("%s is empty: the pipe way needs a header" % file.toString())
    return line


def through_transform(df, columns, binary, options, added, kinds):
    """The "transform" way: Spark SQL's script transform pipes every column through one `tunnel batch` per task.

    Sent per row, tab-separated: the coordinate column(s) as text, escaped as `tunnel batch` reads TSV (\\\\, \\t,
    \\n, \\r, \\0), then every column of df as Spark's text for it (see `carry`), which holds no backslash, tab or line
    break, so that `tunnel batch` reads and writes it unchanged. `tunnel batch` answers from the coordinate and
    writes each row's fields back followed by the added columns; the header is sent before the rows (by the script
    itself) and dropped from the answers. The script's status fails the task when `tunnel` does not end with 0 or
    65 (65: some rows were bad, which their error column says), so a task never ends with fewer rows than it read.
    """
    from pyspark.sql import functions

    spark = df.sparkSession
    sent = [escape(functions.coalesce(functions.col(quoted(name)).cast("string"), functions.lit("")))
            for name in columns]
    carried = [carry(functions.col(quoted(field.name)), field.dataType) for field in df.schema.fields]
    view = "tunnel_rows_%s" % uuid.uuid4().hex
    df.select([column.alias("f%d" % index) for index, column in enumerate(sent + carried)]).createOrReplaceTempView(
        view)
    header = sent_header(columns) + ["f%d" % index for index in range(len(columns), len(sent) + len(carried))]
    script = ("set -o pipefail; [ -x ./{binary} ] || chmod +x ./{binary}; "
              "{{ printf \"{header}\\n\" && exec cat; }} | "
              "./{binary} batch --data ./{archive}/Data --input-format tsv --format tsv {options} | tail -n +2; "
              "status=$?; if [ $status -eq 65 ]; then exit 0; fi; exit $status").format(
        binary=binary, header="\\t".join(header), archive=DATA_ARCHIVE, options=" ".join(options))
    outputs = ["f%d" % index for index in range(len(sent) + len(carried))] + ["a%d" % index
                                                                            for index in range(len(added))]
    tsv = r"ROW FORMAT DELIMITED FIELDS TERMINATED BY '\t' LINES TERMINATED BY '\n'"
    answers = spark.sql("SELECT TRANSFORM(%s) %s USING '%s' AS (%s) %s FROM %s" % (
        ", ".join("f%d" % index for index in range(len(sent) + len(carried))), tsv,
        script.replace("\\", "\\\\").replace("'", "\\'"),
        ", ".join("%s string" % name for name in outputs), tsv, view))
    kept = [uncarry(functions.col("f%d" % (len(sent) + index)), field.dataType).alias(field.name)
            for index, field in enumerate(df.schema.fields)]
    answered = [functions.nullif(functions.col("a%d" % index), functions.lit("")).cast(kind).alias(name)
                for index, (name, kind) in enumerate(zip(added, kinds))]
    return answers.select(kept + answered)


def quoted(name):
    """A column name as Spark reads it whatever it holds (dots, spaces, backticks)."""
    return "`%s`" % name.replace("`", "``")


def escape(text):
    """Text as `tunnel batch` writes it in TSV: a backslash, tab, line feed, carriage return or NUL escaped."""
    from pyspark.sql import functions

    for plain, escaped in (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r"), ("\0", "\\0")):
        text = functions.replace(text, functions.lit(plain), functions.lit(escaped))
    return text


# How carried text avoids what `tunnel batch` would escape: each of these characters as "%" and two hex digits.
PERCENT_CODES = (("%", "%25"), ("\\", "%5C"), ("\t", "%09"), ("\n", "%0A"), ("\r", "%0D"), ("\0", "%00"))


def carry(column, kind):
    """A column as one TSV field that `tunnel batch` passes through unchanged: empty for null, else Spark's text for
    the value; text with "%", "\\", tab, line feed, carriage return and NUL percent-encoded, and empty text as "%"
    (which no encoding is). Numbers, booleans, decimals and dates have no such characters."""
    from pyspark.sql import functions, types

    text = column.cast("string")
    if isinstance(kind, types.StringType):
        for plain, code in PERCENT_CODES:
            text = functions.replace(text, functions.lit(plain), functions.lit(code))
        text = functions.when(text == "", functions.lit("%")).otherwise(text)
    return functions.coalesce(text, functions.lit(""))


def uncarry(field, kind):
    """A carried field back to its value: `carry` undone (codes replaced in reverse order, "%25" last, so that
    each "%" read is the start of a code), then cast to the column's type."""
    from pyspark.sql import functions, types

    if not isinstance(kind, types.StringType):
        return functions.nullif(field, functions.lit("")).cast(kind)
    text = field
    for plain, code in reversed(PERCENT_CODES):
        text = functions.replace(text, functions.lit(code), functions.lit(plain))
    return functions.when(field == "", functions.lit(None)).when(field == "%", functions.lit("")).otherwise(text)
