package io.ktk.flink.cli;

import io.ktk.flink.ingest.CheckpointDirectoryLock;
import io.ktk.flink.ingest.IngestManifest;
import io.ktk.flink.ingest.InputFile;
import io.ktk.flink.ingest.RetainedCheckpoints;
import io.ktk.flink.state.KtkValidationException;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The {@code --checkpoint-dir} of an ingest, opened: locked for as long as it is open ({@link
 * CheckpointDirectoryLock}), checked to belong to the same ingest and not to be finished, with the
 * manifest to go on with, the input to read (stdin spooled into the directory once) and the
 * checkpoint to resume from.
 */
final class IngestCheckpointDir implements AutoCloseable {
  private final Path dir;
  private final CheckpointDirectoryLock lock;
  private final IngestManifest manifest;
  private final Path input;
  private final Path restoreFrom;

  private IngestCheckpointDir(Path dir, CheckpointDirectoryLock lock, IngestManifest manifest, Path input,
      Path restoreFrom) {
    this.dir = dir;
    this.lock = lock;
    this.manifest = manifest;
    this.input = input;
    this.restoreFrom = restoreFrom;
  }

  /**
   * Locks and prepares {@code dir} for the ingest {@code asked}.
   *
   * @param input the input file, or null for stdin
   * @param command for usage errors: a directory of another ingest, an --on-invalid it cannot resume with
   */
  static IngestCheckpointDir open(Path dir, IngestManifest asked, Path input, String onInvalid,
      CommandLine command) throws IOException {
    checkNotForeign(dir, command);
    CheckpointDirectoryLock lock = CheckpointDirectoryLock.acquire(dir);
    try {
      IngestManifest manifest = prepare(dir, asked, onInvalid, command);
      Path inputPath = input;
      if (input == null) {
        inputPath = dir.resolve(IngestManifest.SPOOL);
        if (!manifest.spooled()) {
          manifest = manifest.withSpooled(InputFile.spool(System.in, inputPath));
          manifest.save(dir);
        }
      } else if (Files.size(input) != manifest.inputBytes()) {
        throw new KtkValidationException("Cannot resume the ingest in " + dir + ": " + input + " has "
            + Files.size(input) + " bytes now, " + manifest.inputBytes() + " when the ingest started; use "
            + "another --checkpoint-dir to ingest it anew");
      }
      return new IngestCheckpointDir(dir, lock, manifest, inputPath,
          RetainedCheckpoints.latest(dir.resolve("checkpoints")).orElse(null));
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  IngestManifest manifest() {
    return manifest;
  }

  Path input() {
    return input;
  }

  /** The latest retained checkpoint, or null. */
  Path restoreFrom() {
    return restoreFrom;
  }

  /**
   * Marks the ingest finished; {@code problem} says why its records did not add up, or is null,
   * and then the checkpoints and the spool are deleted (otherwise they are kept to look into).
   */
  static void finish(Path dir, IngestManifest manifest, String problem) throws IOException {
    manifest.withFinished(problem).save(dir);
    if (problem == null) {
      deleteTree(dir.resolve("checkpoints"));
      Files.deleteIfExists(dir.resolve(IngestManifest.SPOOL));
    }
  }

  @Override
  public void close() throws IOException {
    lock.close();
  }

  /**
   * Refuses a directory that holds files but no manifest, before the lock file is put into it: it
   * is no checkpoint directory of an ingest, and may be anything.
   */
  private static void checkNotForeign(Path dir, CommandLine command) throws IOException {
    if (!Files.isDirectory(dir) || Files.exists(dir.resolve(IngestManifest.FILE))) {
      return;
    }
    try (var entries = Files.list(dir)) {
      if (entries.anyMatch(entry -> !entry.getFileName().toString().equals(CheckpointDirectoryLock.FILE))) {
        throw new ParameterException(command, "Invalid value for option '--checkpoint-dir': '" + dir + "' is not "
            + "empty and holds no " + IngestManifest.FILE + " of an ingest; give an empty or new directory");
      }
    }
  }

  /** The manifest to go on with: the directory's own (same ingest, not finished), or {@code asked}, saved. */
  private static IngestManifest prepare(Path dir, IngestManifest asked, String onInvalid, CommandLine command)
      throws IOException {
    Optional<IngestManifest> existing = IngestManifest.load(dir);
    if (existing.isEmpty()) {
      asked.save(dir);
      return asked;
    }
    IngestManifest manifest = existing.get();
    List<String> differences = manifest.differences(asked);
    if (!differences.isEmpty()) {
      throw new ParameterException(command, "Invalid value for option '--checkpoint-dir': '" + dir + "' holds the "
          + "checkpoints of another ingest (" + String.join("; ", differences) + "); give another directory");
    }
    if (manifest.finished()) {
      throw new KtkValidationException("Cannot ingest " + (asked.input().equals("-") ? "stdin" : asked.input())
          + " again with checkpoint directory " + dir + ": that ingest ran to its end"
          + (manifest.accountingProblem() == null ? ""
              : ", but its records did not add up (" + manifest.accountingProblem() + "), which running it again "
                  + "would not repair")
          + "; remove the directory to ingest the input once more");
    }
    if ("DEAD_LETTER".equals(manifest.onInvalid()) && "FAIL".equals(onInvalid)) {
      throw new ParameterException(command, "Invalid value for option '--on-invalid': the ingest in '" + dir
          + "' sets invalid records aside (--on-invalid dead-letter); resume it with that option");
    }
    if (manifest.onInvalid() != null && !manifest.onInvalid().equals(onInvalid)) {
      manifest = manifest.withOnInvalid(onInvalid); // fail -> dead-letter: going on past an invalid record
      manifest.save(dir);
    }
    return manifest;
  }

  private static void deleteTree(Path root) throws IOException {
    // Flink may still be discarding the checkpoints of the finished job: what vanishes meanwhile is fine.
    for (int attempt = 0; Files.exists(root); attempt++) {
      try (var paths = Files.walk(root)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      } catch (NoSuchFileException | DirectoryNotEmptyException e) {
        if (attempt == 10) {
          throw e;
        }
      } catch (java.io.UncheckedIOException e) {
        if (attempt == 10) {
          throw e.getCause();
        }
      }
    }
  }
}
