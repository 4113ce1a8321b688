"""Cube queries on a cube the sink streamed (many small files, composite dimension keys): `ktk query`
against DuckDB doing the same joins and order, each as its own process from start to CSV output,
alternating, median of the repetitions (after one uncounted `ktk query`, which writes the launcher's
class-data archive). Prints one line per query class with both times and the ratio.

Usage: streamed_cube.py --ktk ./ktk --store file:///dir --cube demo [--repetitions 3] [--out DIR]
                        [--in-process-classpath CP]
The cube is the demo's (seed readings, enrichments calibration and alerts; dimensions sensor, ts;
partitioned by day); DuckDB reads the files that the published plateau view lists.

With --in-process-classpath (the benchmarks module's classes and class path), a second table compares
the same queries in process, warm: StreamedQueryInProcess (open the logs, plan, read every batch on all
cores; no output) against DuckDB in this Python process (the query fetched as an Arrow table, all
threads), each the median of the repetitions after a first, uncounted round.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse

QUERIES = [
    # name, ktk query arguments, DuckDB WHERE clause (over r = readings, c = calibration, a = alerts), order
    ("all rows, two left joins", [], "TRUE", "r.day, r.sensor, r.ts"),
    ("restricted enrichment (level == 'high')", ["--where", "level == 'high'"], "a.level = 'high'",
     "r.day, r.sensor, r.ts"),
    ("indexed dimension (sensor == 'sensor-7')", ["--where", "sensor == 'sensor-7'"], "r.sensor = 'sensor-7'",
     "r.day, r.sensor, r.ts"),
    ("payload condition (reading > 29.5)", ["--where", "reading > 29.5"], "r.reading > 29.5",
     "r.day, r.sensor, r.ts"),
    ("--partition-by sensor", ["--partition-by", "sensor"], "TRUE", "r.sensor, r.day, r.ts"),
]

SELECT = """
  SELECT r.day, r.sensor, r.ts, r.event_id, a.level, c.location, c."offset", r.reading
  FROM {readings} r
  LEFT JOIN {calibration} c ON r.day = c.day AND r.sensor = c.sensor
  LEFT JOIN {alerts} a ON r.day = a.day AND r.sensor = a.sensor AND r.ts = a.ts
  WHERE {where}
  ORDER BY {order}
"""

DUCKDB_SCRIPT = r"""
import sys, json, duckdb
with open(sys.argv[1]) as f:
    files, where, order, out = json.load(f)
con = duckdb.connect()
con.execute('SET enable_progress_bar = false')
def table(name):
    paths = files[name]
    return "read_parquet(" + json.dumps(paths).replace('"', "'") + ", hive_partitioning = true)"
con.execute(f'''COPY (
  SELECT r.day, r.sensor, r.ts, r.event_id, a.level, c.location, c."offset", r.reading
  FROM {table("readings")} r
  LEFT JOIN {table("calibration")} c ON r.day = c.day AND r.sensor = c.sensor
  LEFT JOIN {table("alerts")} a ON r.day = a.day AND r.sensor = a.sensor AND r.ts = a.ts
  WHERE {where}
  ORDER BY {order}
) TO '{out}' (FORMAT csv, HEADER true)''')
"""


def parquet_table(paths):
    return "read_parquet(" + json.dumps(paths).replace('"', "'") + ", hive_partitioning = true)"


def in_process(args, directory, files):
    """Ours (a JVM running StreamedQueryInProcess) and DuckDB here, warm, per query: (rows, seconds) each."""
    import duckdb
    java_args = []
    for name, ktk_args, _, _ in QUERIES:
        where = ktk_args[1] if ktk_args and ktk_args[0] == "--where" else ""
        partition_by = ktk_args[1] if ktk_args and ktk_args[0] == "--partition-by" else ""
        java_args += [name, where, partition_by]
    output = subprocess.run(["java", "-Xmx4g", "-cp", args.in_process_classpath,
                             "io.ktk.flink.benchmarks.query.StreamedQueryInProcess", directory, args.cube,
                             str(args.repetitions)] + java_args, check=True, capture_output=True, text=True).stdout
    ours = {}
    for line in output.splitlines():
        name, rows, seconds, cpu = line.split("\t")
        ours[name] = (int(rows), float(seconds), float(cpu))
    con = duckdb.connect()
    tables = {d: parquet_table(p) for d, p in files.items()}
    theirs = {}
    for name, _, where, order in QUERIES:
        sql = SELECT.format(where=where, order=order, **tables)
        times = []
        rows = 0
        for round in range(args.repetitions + 1):
            start = time.perf_counter()
            table = con.sql(sql).arrow()
            # newer DuckDB returns a reader: reading it is part of the query
            table = table.read_all() if hasattr(table, "read_all") else table
            rows = table.num_rows
            if round > 0:
                times.append(time.perf_counter() - start)
        theirs[name] = (rows, statistics.median(times))
    return ours, theirs


def view_files(directory, cube, dataset):
    """The files the published plateau view of cube++dataset lists (absolute paths)."""
    uuid = f"{cube}++{dataset}"
    with open(os.path.join(directory, f"{uuid}.by-dataset-metadata.json")) as f:
        metadata = json.load(f)
    paths = []
    for partition in metadata["partitions"].values():
        for key in partition["files"].values():
            paths.append(os.path.join(directory, key))
    return paths


def timed(command, out):
    start = time.perf_counter()
    with open(out, "w") as sink:
        subprocess.run(command, stdout=sink, check=True)
    return time.perf_counter() - start


def lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ktk", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--cube", default="demo")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--out", default="target/bench-streamed-query")
    parser.add_argument("--in-process-classpath", default=None)
    args = parser.parse_args()
    directory = urllib.parse.urlparse(args.store).path
    os.makedirs(args.out, exist_ok=True)
    files = {d: view_files(directory, args.cube, d) for d in ("readings", "calibration", "alerts")}
    print(f"cube {args.cube} in {args.store}: " + ", ".join(f"{d} {len(p)} files" for d, p in files.items()))
    # The ktk launcher writes its class-data archive on the first run of a command (docs/cli.md), as a
    # user's first query does; that run is not counted (time it with KTK_CDS=off to see the difference).
    subprocess.run([args.ktk, "query", "--store", args.store, "--cube", args.cube] + QUERIES[2][1],
                   stdout=subprocess.DEVNULL, check=True)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'query':45} {'rows':>10} {'ktk query':>10} {'DuckDB':>8} {'ratio':>6}")
    for name, ktk_args, where, order in QUERIES:
        ktk_out = os.path.join(args.out, "ktk.csv")
        duck_out = os.path.join(args.out, "duckdb.csv")
        ktk_times, duck_times = [], []
        duck_args = os.path.join(args.out, "duckdb-query.json")
        with open(duck_args, "w") as f:
            json.dump([files, where, order, os.path.abspath(duck_out)], f)
        for _ in range(args.repetitions):
            ktk_times.append(timed([args.ktk, "query", "--store", args.store, "--cube", args.cube] + ktk_args,
                                   ktk_out))
            duck_times.append(timed([sys.executable, "-c", DUCKDB_SCRIPT, duck_args], "/dev/null"))
        rows_ktk, rows_duck = lines(ktk_out) - 1, lines(duck_out) - 1
        if rows_ktk != rows_duck:
            sys.exit(f"{name}: ktk query printed {rows_ktk} rows, DuckDB {rows_duck}")
        k, d = statistics.median(ktk_times), statistics.median(duck_times)
        print(f"{name:45} {rows_ktk:>10,} {k:>9.2f}s {d:>7.2f}s {k / d:>5.2f}x", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if args.in_process_classpath:
        print(f"in process, warm (load average before: {os.getloadavg()[0]:.1f})")
        print(f"{'query':45} {'rows':>10} {'CubeReader':>10} {'(CPU)':>7} {'DuckDB':>8} {'ratio':>6}")
        ours, theirs = in_process(args, directory, files)
        for name, _, _, _ in QUERIES:
            rows, seconds, cpu = ours[name]
            duck_rows, duck_seconds = theirs[name]
            if rows != duck_rows:
                sys.exit(f"{name} in process: CubeReader returned {rows} rows, DuckDB {duck_rows}")
            print(f"{name:45} {rows:>10,} {seconds:>9.2f}s {cpu:>6.2f}s {duck_seconds:>7.2f}s "
                  f"{seconds / duck_seconds:>5.2f}x", flush=True)
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
