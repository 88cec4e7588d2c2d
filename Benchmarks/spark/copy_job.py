"""Spark's own share of the Spark job: read the CSV as the job does and write it to Parquet, nothing else; with
--through-arrow the rows also pass through mapInArrow's Python worker unchanged, the least that way can cost.

spark-submit copy_job.py POINTS.csv OUTPUT [--through-arrow]
"""

import sys
import time

from pyspark.sql import SparkSession


def unchanged(batches):
    yield from batches


def main():
    source, output = sys.argv[1], sys.argv[2]
    through_arrow = sys.argv[3:] == ["--through-arrow"]
    spark = SparkSession.builder.appName("copy").getOrCreate()
    points = spark.read.option("header", True).option("escape", '"').csv(source)
    if through_arrow:
        points = points.mapInArrow(unchanged, points.schema)
    started = time.monotonic()
    points.write.mode("overwrite").parquet(output)
    seconds = time.monotonic() - started
    spark.stop()
    print("copy_job: copied in %.2f s" % seconds, file=sys.stderr)


if __name__ == "__main__":
    main()
