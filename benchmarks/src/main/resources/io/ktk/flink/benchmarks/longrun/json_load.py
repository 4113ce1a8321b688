"""Times json.load of a plateau metadata JSON, as a plateau reader parses it.

Usage: json_load.py PATH ROUNDS. Prints the median seconds of ROUNDS loads and the peak resident
memory of the process in KiB (VmHWM: getrusage would report the JVM that started it).
"""
import json
import statistics
import sys
import time

path, rounds = sys.argv[1], int(sys.argv[2])
seconds = []
for _ in range(rounds):
    start = time.perf_counter()
    with open(path, "rb") as f:
        json.load(f)
    seconds.append(time.perf_counter() - start)
with open("/proc/self/status") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print(statistics.median(seconds), peak)
