package io.ktk.flink.ingest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The checkpoints Flink retained in a directory: {@code <dir>/<job id>/chk-<n>/_metadata}. A
 * checkpoint is complete when its {@code _metadata} exists (Flink writes it last). Each run is a
 * new job id; a run restored from checkpoint {@code n} numbers its own checkpoints after {@code n},
 * so the highest number is the latest.
 */
public final class RetainedCheckpoints {
  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");

  private RetainedCheckpoints() {}

  /** The directory of the latest complete checkpoint under {@code dir}, if any. */
  public static Optional<Path> latest(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> jobs = Files.list(dir)) {
      return jobs.filter(Files::isDirectory)
          .flatMap(job -> {
            try {
              return Files.list(job).toList().stream();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          })
          .filter(checkpoint -> number(checkpoint) >= 0 && Files.isRegularFile(checkpoint.resolve("_metadata")))
          .max(Comparator.comparingLong(RetainedCheckpoints::number));
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static long number(Path checkpoint) {
    Matcher matcher = CHECKPOINT.matcher(checkpoint.getFileName().toString());
    return matcher.matches() ? Long.parseLong(matcher.group(1)) : -1;
  }
}
