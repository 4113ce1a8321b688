package io.ktk.flink.benchmarks.longrun;

/**
 * The figures of the simulated dataset after a number of commits.
 *
 * @param commits checkpoints committed
 * @param version the log's latest version (checkpoints, rewrites and expiries)
 * @param commitP50 commit time of the last commits, median, ms
 * @param commitP99 commit time, 99th percentile, ms
 * @param publishP50 publication of the plateau view after a commit, median, ms
 * @param publishP99 its 99th percentile, ms
 * @param coldOpen reading the latest state from the store with a new reader, ms
 * @param coldOpenReads whole-object reads of that cold open
 * @param coldOpenListed keys listed by that cold open
 * @param listLog listing the log's directory, as the cold open does (a local directory lists
 *     every entry to return those after a key; S3 starts at the key), ms
 * @param metadataJsonBytes the published metadata JSON
 * @param jsonLoad Python's {@code json.load} of it, ms
 * @param jsonLoadRssMb the peak resident memory of that Python process
 * @param logEntries entries stored
 * @param logBytes bytes of the log (entries and snapshots)
 * @param snapshots snapshots stored
 * @param newestSnapshotBytes the newest snapshot
 * @param files files of the latest version
 * @param partitions physical partitions of the latest version
 * @param maxFilesPerPartition the most files of one partition
 * @param indexEntries (value, file) pairs of the index of the latest version
 * @param storedDataFiles data files in the store (referenced or kept for retained versions)
 * @param storedIndexFiles index files in the store
 * @param storedIndexBytes their bytes
 * @param liveHeapMb the process's heap after a full collection: what it holds to commit, publish
 *     and maintain the dataset
 * @param stateMb one copy of the dataset's state in memory (each of committer, publisher and
 *     maintenance holds one)
 * @param compactionP50 compaction (plan, rewrite, commit) after a commit, median of the last ones, ms
 * @param compactionP99 its 99th percentile, ms
 * @param expiryMs an expiry, median of the last ones, ms
 * @param gcMs a garbage collection, median of the last ones, ms
 * @param wallSeconds the simulation's time so far
 * @param cpuSeconds the process's CPU time so far
 */
record Mark(
    long commits,
    long version,
    double commitP50,
    double commitP99,
    double publishP50,
    double publishP99,
    double coldOpen,
    int coldOpenReads,
    int coldOpenListed,
    double listLog,
    long metadataJsonBytes,
    double jsonLoad,
    double jsonLoadRssMb,
    int logEntries,
    long logBytes,
    int snapshots,
    long newestSnapshotBytes,
    int files,
    int partitions,
    int maxFilesPerPartition,
    long indexEntries,
    int storedDataFiles,
    int storedIndexFiles,
    long storedIndexBytes,
    double liveHeapMb,
    double stateMb,
    double compactionP50,
    double compactionP99,
    double expiryMs,
    double gcMs,
    double wallSeconds,
    double cpuSeconds) {

  double filesPerPartition() {
    return partitions == 0 ? 0 : (double) files / partitions;
  }
}
