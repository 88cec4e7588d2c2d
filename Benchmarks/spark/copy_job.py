"""Spark's own share of the Spark job: read the CSV as the job does and write it to Parquet, nothing else; with
--through-arrow the rows also pass through mapInArrow's Python worker unchanged, the least that way can cost; with
--typed (for `tunnel batch`'s own answers) the columns `tunnel batch` adds are typed as the job types them, the
least any way pays to write the answers.

spark-submit copy_job.py POINTS.csv OUTPUT [--through-arrow | --typed]
"""

import os
import sys
import time

from pyspark.sql import SparkSession


def unchanged(batches):
    yield from batches


def main():
    source, output = sys.argv[1], sys.argv[2]
    through_arrow = sys.argv[3:] == ["--through-arrow"]
    spark = SparkSession.builder.appName("copy").getOrCreate()
    reader = spark.read.option("header", True).option("escape", '"')
    if sys.argv[3:] == ["--typed"]:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Examples", "spark"))
        from tunnel_spark import added_type, quoted

        with open(source) as handle:
            names = handle.readline().rstrip("\n").split(",")
        # The points' own two columns are text, as the job reads them; the rest are typed.
        reader = reader.schema(", ".join("%s %s" % (quoted(name), "string" if index < 2 else added_type(name, False))
                                         for index, name in enumerate(names)))
    points = reader.csv(source)
    if through_arrow:
        points = points.mapInArrow(unchanged, points.schema)
    started = time.monotonic()
    points.write.mode("overwrite").parquet(output)
    seconds = time.monotonic() - started
    spark.stop()
    print("copy_job: copied in %.2f s" % seconds, file=sys.stderr)


if __name__ == "__main__":
    main()
