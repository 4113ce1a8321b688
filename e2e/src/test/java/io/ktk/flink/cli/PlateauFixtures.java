package io.ktk.flink.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The datasets plateau 4.6.2 wrote, kept unchanged under {@code src/test/resources/plateau} (see
 * its README), copied into a test's store directory so that the test may change them.
 */
final class PlateauFixtures {
  private PlateauFixtures() {}

  /** The directory holding the fixtures (its file names hold {@code %}, so it is walked, not looked up). */
  static Path root() {
    try {
      return Path.of(PlateauFixtures.class.getResource("/plateau/README.md").toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Copies dataset {@code uuid} (metadata JSON and all its objects) into the store directory {@code store}. */
  static void copy(String uuid, Path store) {
    Path root = root();
    try {
      Files.createDirectories(store);
      Files.copy(root.resolve(uuid + ".by-dataset-metadata.json"), store.resolve(uuid + ".by-dataset-metadata.json"));
      List<Path> files;
      try (Stream<Path> walk = Files.walk(root.resolve(uuid))) {
        files = walk.filter(Files::isRegularFile).toList();
      }
      for (Path file : files) {
        Path target = store.resolve(root.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy the plateau dataset " + uuid + " to " + store, e);
    }
  }
}
