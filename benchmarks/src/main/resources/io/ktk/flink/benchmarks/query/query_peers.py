# The query benchmark's peers, over the same Parquet files as the Java side (see QueryBenchmark):
# DuckDB executing the equivalent SQL, and pandas joining partition by partition (how Kartothek's
# query_cube does it: per physical partition, load each dataset's files, filter, merge on the
# dimension columns, sort, then concatenate). Prints one JSON object with timings and checksums.
import glob, json, os, statistics, sys, time

import duckdb
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq

root, repetitions, threshold = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])


def files(dataset):
    return sorted(glob.glob(os.path.join(root, "bench++" + dataset, "table", "p=*", "*.parquet")))


def checksums(rows, x, a, b_valid):
    return {"rows": rows, "sum_x": x, "sum_a": a, "b_count": b_valid}


SQL = """
SELECT s.p, s.x, s.v, e.a, l.b
FROM read_parquet({seed}, hive_partitioning = true) s
JOIN read_parquet({enrich}, hive_partitioning = true) e ON s.p = e.p AND s.x = e.x
LEFT JOIN read_parquet({label}, hive_partitioning = true) l ON s.p = l.p AND s.x = l.x
WHERE e.a < {threshold}
ORDER BY s.p, s.x
""".format(seed=files("seed"), enrich=files("enrich"), label=files("label"), threshold=threshold)


def duckdb_query(threads):
    con = duckdb.connect()
    con.execute("SET threads = %d" % threads)

    def run():
        return con.sql(SQL).arrow()

    def check(table):
        table = table.read_all() if hasattr(table, "read_all") else table
        return checksums(table.num_rows, pc.sum(table["x"]).as_py(), pc.sum(table["a"]).as_py(),
                         table.num_rows - table["b"].null_count)

    return run, check


def pandas_query():
    by_partition = {}
    for dataset in ("seed", "enrich", "label"):
        for f in files(dataset):
            p = int(os.path.basename(os.path.dirname(f)).split("=", 1)[1])
            by_partition.setdefault(p, {}).setdefault(dataset, []).append(f)

    def load(paths, columns):
        return pd.concat([pq.read_table(f, columns=columns).to_pandas() for f in paths], ignore_index=True)

    def run():
        parts = []
        for p in sorted(by_partition):
            d = by_partition[p]
            seed = load(d["seed"], ["x", "v"])
            enrich = load(d["enrich"], ["x", "a"])
            enrich = enrich[enrich["a"] < threshold]
            df = seed.merge(enrich, on="x", how="inner")
            if "label" in d:
                df = df.merge(load(d["label"], ["x", "b"]), on="x", how="left")
            else:
                df["b"] = None
            df = df.sort_values("x", kind="stable")
            df.insert(0, "p", p)
            parts.append(df)
        return pd.concat(parts, ignore_index=True)

    def check(df):
        return checksums(len(df), int(df["x"].sum()), float(df["a"].sum()), int(df["b"].notna().sum()))

    return run, check


def measure(run, check):
    start = time.perf_counter()
    result = run()
    cold = time.perf_counter() - start
    sums = check(result)
    del result
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
        del result
    return dict(sums, cold_seconds=cold, median_seconds=statistics.median(times), min_seconds=min(times))


cores = os.cpu_count() or 1
out = {
    "versions": {"duckdb": duckdb.__version__, "pandas": pd.__version__},
    "cores": cores,
    "pandas": measure(*pandas_query()),
    "duckdb": measure(*duckdb_query(cores)),
    "duckdb_1": measure(*duckdb_query(1)),
}
print(json.dumps(out))
