package io.ktk.flink.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** What the cluster tests start from: an empty work directory, Flink's class path, the connector jar (set by the pom). */
final class ClusterInputs {
  private ClusterInputs() {}

  /** {@code work} emptied (the last run's logs are kept until the next run starts) and created. */
  static Path freshWorkDirectory(Path work) throws IOException {
    if (Files.exists(work)) {
      try (Stream<Path> old = Files.walk(work)) {
        for (Path file : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
    return Files.createDirectories(work);
  }

  /** Flink's artifacts and their libraries: what a distribution's {@code lib/} holds. */
  static List<Path> flinkClasspath() throws IOException {
    return Arrays.stream(Files.readString(Path.of(System.getProperty("ktk.flink.classpath"))).trim()
        .split(File.pathSeparator)).map(Path::of).toList();
  }

  /** The shaded connector jar. */
  static Path connectorJar() {
    return Path.of(System.getProperty("ktk.connector.jar"));
  }
}
