package io.ktk.flink.cli;

import io.ktk.flink.ingest.CommittedRows;
import io.ktk.flink.ingest.IngestFailedException;
import io.ktk.flink.ingest.IngestManifest;
import io.ktk.flink.ingest.InputFile;
import io.ktk.flink.ingest.IngestFormat;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What one ingest did to its dataset, in numbers and words: the rows it committed, counted from
 * its own log entries ({@link CommittedRows}), so that other writers of the dataset do not
 * disturb the count; why its records do not add up, when they do not; and, when it stopped
 * early, what it left in the dataset and how to go on without committing anything twice.
 *
 * <p>An ingest of a manifest written before writer id prefixes existed counts the dataset's
 * growth instead, which other writers do disturb.
 */
final class IngestOutcome {
  private final ObjectStore store;
  private final IngestManifest manifest;
  private final InputFile input;
  private final IngestFormat format;
  private final String inputName;
  private final String target;
  private final CommittedRows own;

  IngestOutcome(ObjectStore store, IngestManifest manifest, InputFile input, IngestFormat format, String inputName,
      String target) {
    this.store = store;
    this.manifest = manifest;
    this.input = input;
    this.format = format;
    this.inputName = inputName;
    this.target = target;
    this.own = manifest.writerIdPrefix() == null ? null
        : new CommittedRows(store, manifest.dataset(), manifest.versionBefore(), manifest.writerIdPrefix());
  }

  /** The rows this ingest has committed so far, over all its runs. */
  long committed() throws IOException {
    if (own != null) {
      return own.refresh();
    }
    DatasetState state = new LogReader(store, manifest.dataset()).latest();
    return state.files().values().stream().mapToLong(DataFile::rows).sum() - manifest.rowsBefore();
  }

  /** How the numbers fail to add up, e.g. "11 read, 8 committed, 2 rejected: 1 record missing"; null when they do. */
  static String unaccounted(long read, long committed, long rejected) {
    long missing = read - committed - rejected;
    if (missing == 0) {
      return null;
    }
    return read + " read, " + committed + " committed, " + rejected + " rejected: "
        + (missing > 0 ? missing + " missing" : -missing + " more committed or rejected than read");
  }

  /** The message of an ingest whose numbers did not add up ({@link #unaccounted}). */
  String unaccountedMessage(String problem) {
    if (own == null) {
      return "Cannot account for every record of " + inputName + " (" + problem + "); did another writer change "
          + target + " meanwhile?";
    }
    return "Cannot account for every record of " + inputName + " in " + target + " (" + problem + "). Only the "
        + "commits of this ingest count (their writer ids start with " + manifest.writerIdPrefix() + "), so other "
        + "writers do not explain it: records were lost or written twice. Check the dataset with 'ktk read' and "
        + "'ktk validate'.";
  }

  /**
   * The failure of a job that stopped before the end of the input, telling what of the input it
   * committed before (which stays in the dataset) and how to go on.
   *
   * @param rejected dead letters handed on to {@code deadLetters} (only when the ingest cannot be resumed)
   */
  KtkException stopped(KtkException failure, ValidationPolicy policy, Path checkpointDir, long rejected,
      Path deadLetters) {
    long committed;
    try {
      committed = committed();
    } catch (IOException | RuntimeException e) {
      return new IngestFailedException(failure.getMessage() + "\n(What this ingest committed before cannot be "
          + "counted: " + e.getMessage() + ")", failure);
    }
    StringBuilder message = new StringBuilder(failure.getMessage()).append('\n');
    // With FAIL, every record before the last committed checkpoint was committed (any invalid one
    // would have stopped the job), and a checkpoint covers all records the source read before it.
    long lastLine = policy == ValidationPolicy.FAIL && own != null && committed > 0 ? lastLineOf(committed) : -1;
    if (committed == 0) {
      message.append("This ingest committed nothing to ").append(target).append(" before it stopped");
    } else {
      message.append("Before it stopped, this ingest committed ").append(committed).append(" records to ")
          .append(target).append(", which stay there");
      if (lastLine > 0) {
        message.append(": the first ").append(committed).append(" records of ").append(inputName)
            .append(", up to line ").append(lastLine);
      }
    }
    if (rejected > 0) {
      message.append("; ").append(rejected).append(" invalid records of it were set aside in ").append(deadLetters);
    }
    message.append(". ");
    if (checkpointDir != null) {
      message.append("Run the same command again to go on from the last checkpoint without committing anything "
          + "twice; to set invalid records aside, add --on-invalid dead-letter (the input must not change in "
          + "between).");
    } else if (lastLine > 0) {
      message.append("To add the rest, ingest only the records after line ").append(lastLine)
          .append(format == IngestFormat.CSV ? " (with the header row)" : "").append(": the whole input again "
          + "would commit the first ").append(committed).append(" twice. With --checkpoint-dir, an ingest can be "
          + "resumed instead.");
    } else if (committed > 0) {
      message.append("Ingesting the whole input again would commit them twice; with --checkpoint-dir, an ingest "
          + "can be resumed instead.");
    }
    return new IngestFailedException(message.toString().strip(), failure);
  }

  private long lastLineOf(long records) {
    try {
      return input.lastLineOf(format, records);
    } catch (IOException e) {
      return -1;
    }
  }
}
