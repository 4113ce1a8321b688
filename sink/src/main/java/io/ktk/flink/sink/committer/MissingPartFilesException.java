package io.ktk.flink.sink.committer;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.commit.GarbageCollector;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Part files of a checkpoint that was never committed are gone from the store, so the checkpoint
 * cannot be committed: committing it would make the dataset reference files that do not exist.
 * Nothing of the checkpoint was committed (for a cube, to none of the transaction's datasets).
 *
 * <p>The usual cause is garbage collection ({@code ktk gc}): it deletes files that no version
 * references once they are older than its safety age, and a job that was down longer than that
 * restored a checkpoint whose files it had deleted. Retrying cannot help, so the sink fails the job
 * without restarts; what to do is in the message.
 */
@PublicEvolving
public final class MissingPartFilesException extends KtkException {
  private static final long serialVersionUID = 1L;

  private final String dataset;
  private final long checkpointId;
  private final List<String> missingKeys;
  private final int fileCount;
  private final Duration age;

  /**
   * @param age how long ago the batch's first file was written, or null when the batch does not
   *     record it (restored from a version 1 checkpoint)
   * @param cube the cube whose transaction the checkpoint is, or null
   */
  public MissingPartFilesException(String dataset, long checkpointId, List<String> missingKeys, int fileCount,
      Duration age, String cube) {
    super(message(dataset, checkpointId, missingKeys, fileCount, age, cube));
    this.dataset = requireNonNull(dataset, "dataset is null");
    this.checkpointId = checkpointId;
    this.missingKeys = List.copyOf(missingKeys);
    this.fileCount = fileCount;
    this.age = age;
  }

  private static String message(String dataset, long checkpointId, List<String> missingKeys, int fileCount,
      Duration age, String cube) {
    if (missingKeys.isEmpty()) {
      throw new IllegalArgumentException("no missing files");
    }
    String written = age == null
        ? "its age is unknown (restored from a checkpoint of an older sink version)"
        : "it was written " + format(age) + " ago";
    String nothing = cube == null
        ? "Nothing of checkpoint " + checkpointId + " was committed. "
        : "Nothing of checkpoint " + checkpointId + " was committed to any dataset of cube '" + cube + "'. ";
    return "Cannot commit checkpoint " + checkpointId + " to dataset '" + dataset + "': " + missingKeys.size()
        + " of its " + fileCount + " part files are missing from the store (first: " + missingKeys.get(0) + "); "
        + written + ". Garbage collection probably deleted them: it deletes files no version references once "
        + "they are older than its safety age (ktk gc --older-than, default 1 day), and "
        + (age != null && age.compareTo(GarbageCollector.MIN_SAFETY_AGE) < 0
            ? "these are younger than the smallest safety age GC accepts without --force (" + format(
                GarbageCollector.MIN_SAFETY_AGE) + "): GC was probably forced to a shorter age while this job ran. "
            : "the job was down longer than that before it was restored from this checkpoint. ")
        + nothing
        + "The records of the checkpoint are lost from the sink's state: restore the missing files (e.g. from "
        + "object versions of the bucket) and restart the job, or start the job without this state (from the "
        + "source position of the last committed checkpoint, or a savepoint older than checkpoint " + checkpointId
        + ") so that they are written again. Keep the GC safety age longer than any job may be down and still "
        + "be restored from its checkpoint.";
  }

  /** An age as days, hours, minutes and seconds, e.g. {@code 1d 2h 0m 5s}. */
  static String format(Duration age) {
    StringBuilder text = new StringBuilder();
    if (age.toDays() > 0) {
      text.append(age.toDays()).append("d ");
    }
    if (age.toHours() > 0) {
      text.append(age.toHoursPart()).append("h ");
    }
    if (age.toMinutes() > 0) {
      text.append(age.toMinutesPart()).append("m ");
    }
    return text.append(age.toSecondsPart()).append('s').toString();
  }

  public String dataset() {
    return dataset;
  }

  public long checkpointId() {
    return checkpointId;
  }

  /** The store keys of the missing files, in the batch's order. */
  public List<String> missingKeys() {
    return missingKeys;
  }

  /** How many files the batch has. */
  public int fileCount() {
    return fileCount;
  }

  /** The batch's age when it was checked; empty when it does not record its write time. */
  public Optional<Duration> age() {
    return Optional.ofNullable(age);
  }
}
