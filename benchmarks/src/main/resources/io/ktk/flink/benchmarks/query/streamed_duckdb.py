"""DuckDB's in-process time for the streamed cube's query classes, to set beside the Flink jobs'.

Usage: streamed_duckdb.py STORE_DIR CUBE REPETITIONS
Each query joins the files the published plateau views list, as the cube query does (readings
left-joined with calibration on (day, sensor) and alerts on (day, sensor, ts)), and fetches the
answer as an Arrow table: no ORDER BY, since a Flink job's parallel readers do not order their
rows either. Timed from connect to the fetched table, a fresh connection per run; prints one JSON
object: per query name, the rows and the median and min seconds.
"""
import json
import os
import statistics
import sys
import time

import duckdb

WHERE = {
    "all rows": "TRUE",
    "restricted enrichment": "a.level = 'high'",
    "indexed dimension": "r.sensor = 'sensor-7'",
    "payload condition": "r.reading > 29.5",
}


def view_files(directory, cube, dataset):
    with open(os.path.join(directory, f"{cube}++{dataset}.by-dataset-metadata.json")) as f:
        metadata = json.load(f)
    return [os.path.join(directory, key) for partition in metadata["partitions"].values()
            for key in partition["files"].values()]


def main():
    directory, cube, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
    files = {d: view_files(directory, cube, d) for d in ("readings", "calibration", "alerts")}

    def table(name):
        return "read_parquet(" + json.dumps(files[name]).replace('"', "'") + ", hive_partitioning = true)"

    results = {}
    for name, where in WHERE.items():
        sql = f"""SELECT r.day, r.sensor, r.ts, r.event_id, a.level, c.location, c."offset", r.reading
          FROM {table("readings")} r
          LEFT JOIN {table("calibration")} c ON r.day = c.day AND r.sensor = c.sensor
          LEFT JOIN {table("alerts")} a ON r.day = a.day AND r.sensor = a.sensor AND r.ts = a.ts
          WHERE {where}"""
        times, rows = [], 0
        for _ in range(repetitions):
            start = time.perf_counter()
            con = duckdb.connect()
            rows = con.execute(sql).fetch_arrow_table().num_rows
            con.close()
            times.append(time.perf_counter() - start)
        results[name] = {"rows": rows, "median_seconds": statistics.median(times), "min_seconds": min(times)}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
