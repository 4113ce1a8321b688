# The compaction benchmark's peer (see CompactionBenchmark): DuckDB rewriting the same small Parquet
# files into one with COPY (SELECT * FROM read_parquet([...])) TO '...' (FORMAT parquet) on the given
# number of threads, timed in this process (its start and imports are not). Prints one JSON object:
# wall and CPU seconds, and the rows and bytes written.
import json, os, sys, time

import duckdb
import pyarrow.parquet as pq

file_list, out_dir, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = [line for line in open(file_list).read().split("\n") if line]
target = os.path.join(out_dir, "duckdb-%d.parquet" % threads)
if os.path.exists(target):
    os.remove(target)
con = duckdb.connect()
con.execute("SET threads = %d" % threads)
sql = "COPY (SELECT * FROM read_parquet({files})) TO '{target}' (FORMAT parquet)".format(files=files, target=target)
wall, cpu = time.perf_counter(), time.process_time()
con.execute(sql)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
con.close()
result = {"seconds": wall, "cpu_seconds": cpu, "rows": pq.ParquetFile(target).metadata.num_rows,
          "bytes": os.path.getsize(target), "duckdb": duckdb.__version__}
os.remove(target)
print(json.dumps(result))
