package io.ktk.flink.cli;

import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import picocli.CommandLine.Option;

/**
 * {@code --dataset UUID | --cube NAME}: what a command works on. A cube's datasets are found by
 * listing the store for {@code <cube>++<id>} metadata files.
 */
public final class Target {
  @Option(names = "--dataset", required = true, paramLabel = "UUID", description = "A dataset's uuid.")
  String dataset;

  @Option(names = "--cube", required = true, paramLabel = "NAME",
      description = "A cube's name: all its datasets <cube>++<id>.")
  String cube;

  boolean isCube() {
    return cube != null;
  }

  /** "dataset 'x'" or "cube 'y'", for messages. */
  String describe() {
    return isCube() ? "cube '" + cube + "'" : "dataset '" + dataset + "'";
  }

  /** Checks the names' syntax; a mistake here is bad usage, found before the store is touched. */
  void check(picocli.CommandLine commandLine) {
    if (dataset != null && !DatasetKeys.isValidUuid(dataset)) {
      throw new picocli.CommandLine.ParameterException(commandLine, "Invalid value for option '--dataset': '"
          + dataset + "' is not a dataset uuid (allowed: A-Z a-z 0-9 + - _)");
    }
    if (cube != null && !CubeNames.isValidName(cube)) {
      throw new picocli.CommandLine.ParameterException(commandLine, "Invalid value for option '--cube': '"
          + cube + "' is not a cube name (allowed: A-Z a-z 0-9 + - _, no '++', no leading or trailing '+')");
    }
  }

  /** The uuids of the datasets: the one given, or those of the cube (which must have at least one). */
  List<String> uuids(ObjectStore store) throws IOException {
    if (!isCube()) {
      return List.of(dataset);
    }
    return cubeUuids(store, cube);
  }

  /** The same uuids with the cube's seed (marked in its metadata) last. */
  static List<String> seedLast(ObjectStore store, List<String> uuids) throws IOException {
    List<String> ordered = new ArrayList<>();
    List<String> seeds = new ArrayList<>();
    for (String uuid : uuids) {
      boolean seed = DatasetMetadata.load(store, uuid).map(CubeMetadataKeys::isSeed).orElse(false);
      (seed ? seeds : ordered).add(uuid);
    }
    ordered.addAll(seeds);
    return ordered;
  }

  static List<String> cubeUuids(ObjectStore store, String cube) throws IOException {
    NavigableSet<String> uuids = DatasetKeys.discoverDatasetUuids(store, CubeNames.uuidPrefix(cube));
    List<String> found = uuids.stream().filter(uuid -> CubeNames.datasetId(cube, uuid).isPresent()).toList();
    if (found.isEmpty()) {
      throw new NoSuchDatasetException("Cannot read cube '" + cube + "' in " + store.url()
          + ": no dataset named " + CubeNames.uuidPrefix(cube) + "<id> has metadata there");
    }
    return found;
  }
}
