# The compaction benchmark's peer (see CompactionBenchmark): DuckDB rewriting the same small Parquet
# files into one with COPY (SELECT * FROM read_parquet([...])) TO '...' (FORMAT parquet), once per
# repetition and thread count (the counts take turns, as on the Java side). Prints one JSON object:
# per thread count the wall and CPU seconds of each run, and the rows and bytes written.
import json, os, sys, time

import duckdb
import pyarrow.parquet as pq

file_list, out_dir, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
thread_counts = [int(t) for t in sys.argv[4].split(",")]
files = [line for line in open(file_list).read().split("\n") if line]
sql = "COPY (SELECT * FROM read_parquet({files})) TO '{target}' (FORMAT parquet)"

runs = {str(t): [] for t in thread_counts}
written = {}
for repetition in range(repetitions):
    for threads in thread_counts:
        target = os.path.join(out_dir, "duckdb-%d.parquet" % threads)
        if os.path.exists(target):
            os.remove(target)
        con = duckdb.connect()
        con.execute("SET threads = %d" % threads)
        wall, cpu = time.perf_counter(), time.process_time()
        con.execute(sql.format(files=files, target=target))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        con.close()
        runs[str(threads)].append({"seconds": wall, "cpu_seconds": cpu})
        written[str(threads)] = {"rows": pq.ParquetFile(target).metadata.num_rows, "bytes": os.path.getsize(target)}
        os.remove(target)

print(json.dumps({"runs": runs, "written": written, "duckdb": duckdb.__version__, "cores": os.cpu_count()}))
