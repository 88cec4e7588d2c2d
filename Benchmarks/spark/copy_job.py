"""Spark's own share of the Spark job: read the CSV as the job does and write it to Parquet, nothing else.

spark-submit copy_job.py POINTS.csv OUTPUT
"""

import sys
import time

from pyspark.sql import SparkSession


def main():
    source, output = sys.argv[1], sys.argv[2]
    spark = SparkSession.builder.appName("copy").getOrCreate()
    points = spark.read.option("header", True).option("escape", '"').csv(source)
    started = time.monotonic()
    points.write.mode("overwrite").parquet(output)
    seconds = time.monotonic() - started
    spark.stop()
    print("copy_job: copied in %.2f s" % seconds, file=sys.stderr)


if __name__ == "__main__":
    main()
