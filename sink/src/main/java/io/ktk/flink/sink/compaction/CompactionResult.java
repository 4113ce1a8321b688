package io.ktk.flink.sink.compaction;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a {@link Compactor#compact} did, partition by partition.
 *
 * @param uuid the dataset
 * @param partitions the outcome of each planned partition, in plan order
 */
public record CompactionResult(String uuid, List<PartitionResult> partitions) {
  public CompactionResult {
    requireNonNull(uuid, "uuid is null");
    partitions = List.copyOf(partitions);
  }

  /** What became of a partition's rewrite. */
  public enum Outcome {
    /** Committed: readers of the log see the new files from {@code version} on. */
    COMMITTED,
    /**
     * Lost to a concurrent change (a file it removes is gone, or an index was added): nothing was
     * committed, the files written were deleted. Planning again finds what is left to do.
     */
    CONFLICT,
    /** Failed (a store error, a file that cannot be read): nothing was committed, the files written were deleted. */
    FAILED,
    /**
     * The store failed while committing and it is unknown whether the version landed: the files
     * written were kept (they may be committed); garbage collection deletes them if they are not.
     */
    UNKNOWN
  }

  /**
   * The rewrite of one physical partition.
   *
   * @param version the version that committed it, or -1 (also when the store failed after the
   *     version landed and the log showed it was committed)
   * @param filesBefore the partition's files when planned
   * @param bytesBefore their bytes
   * @param filesIn files read (and removed, when committed)
   * @param filesOut files written (and added, when committed)
   * @param rowsOut rows written: fewer than read when a cube dataset's superseded rows were dropped
   * @param message why it was not committed, or null
   */
  public record PartitionResult(
      String partition,
      Outcome outcome,
      long version,
      int filesBefore,
      long bytesBefore,
      int filesIn,
      long bytesIn,
      long rowsIn,
      int filesOut,
      long bytesOut,
      long rowsOut,
      String message) {

    public PartitionResult {
      requireNonNull(partition, "partition is null");
      requireNonNull(outcome, "outcome is null");
    }

    /** The partition's files after the rewrite (as before when it was not committed). */
    public int filesAfter() {
      return outcome == Outcome.COMMITTED ? filesBefore - filesIn + filesOut : filesBefore;
    }

    /** The partition's bytes after the rewrite. */
    public long bytesAfter() {
      return outcome == Outcome.COMMITTED ? bytesBefore - bytesIn + bytesOut : bytesBefore;
    }
  }

  /** The partitions whose rewrite was committed. */
  public List<PartitionResult> committed() {
    return partitions.stream().filter(p -> p.outcome() == Outcome.COMMITTED).toList();
  }

  /** The partitions whose rewrite was not committed, or may not have been. */
  public List<PartitionResult> notCommitted() {
    return partitions.stream().filter(p -> p.outcome() != Outcome.COMMITTED).toList();
  }

  /** Files read and removed by committed rewrites. */
  public int filesCompacted() {
    return committed().stream().mapToInt(PartitionResult::filesIn).sum();
  }

  /** Bytes read by committed rewrites. */
  public long bytesCompacted() {
    return committed().stream().mapToLong(PartitionResult::bytesIn).sum();
  }

  /** Files written by committed rewrites. */
  public int filesWritten() {
    return committed().stream().mapToInt(PartitionResult::filesOut).sum();
  }

  /** Bytes written by committed rewrites. */
  public long bytesWritten() {
    return committed().stream().mapToLong(PartitionResult::bytesOut).sum();
  }
}
