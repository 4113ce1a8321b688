package io.ktk.flink.cli;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.CubeVersions;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ktk copy}: copies a dataset, or every dataset of a cube, to another store. See {@link DatasetCopier}. */
@Command(
    name = "copy",
    sortOptions = false,
    description = {
      "Copies a dataset, or every dataset of a cube, to another store: the latest version, consistently.",
      "Data files first, then the log (version 0 last), then the plateau metadata published from the "
          + "copied log: the target shows the dataset only once everything it refers to is there. Files "
          + "that only older versions referenced are not copied. A cube's seed is copied last, so a "
          + "half-copied cube has no seed. Datasets that exist at the target are refused; an interrupted "
          + "copy can be run again."
    },
    footer = {
      "",
      "Example:",
      "  ktk copy --store file:///data --cube sales \\",
      "      --to s3://bucket/backup --to-option region=eu-west-1"
    })
final class CopyCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--to", required = true, paramLabel = "URL", description = "The store to copy to.")
  String toUrl;

  @Option(names = "--to-option", paramLabel = "KEY=VALUE", description = "An option of the target store, repeatable "
      + "(as --store-option).")
  Map<String, String> toOptions = new LinkedHashMap<>();

  /** The writer id of the cube log record a cube copy writes at the target. */
  static final String COPY_WRITER_ID = "ktk-copy";

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    try (ObjectStore to = ObjectStores.open(toUrl, toOptions)) {
      if (to.url().equals(store.url())) {
        throw new KtkValidationException("Cannot copy " + target.describe() + " from " + store.url()
            + " to itself; give another --to");
      }
      List<String> uuids = target.uuids(store);
      if (target.isCube()) {
        uuids = Target.seedLast(store, uuids);
      }
      DatasetCopier copier = new DatasetCopier(store, to);
      PrintWriter out = out();
      // A cube is copied at the versions a cube reader sees (no half-committed cube transaction),
      // and the copy gets a cube log that records them.
      Map<String, DatasetState> pinned = new TreeMap<>();
      if (target.isCube()) {
        List<String> logged = new ArrayList<>();
        for (String uuid : uuids) {
          if (new LogReader(store, uuid).hasLog()) {
            logged.add(CubeNames.datasetId(target.cube, uuid).orElseThrow());
          }
        }
        CubeVersions.latest(store, target.cube, logged)
            .forEach((id, state) -> pinned.put(CubeNames.datasetUuid(target.cube, id), state));
      }
      Map<String, Long> copiedVersions = new TreeMap<>();
      for (String uuid : uuids) {
        DatasetCopier.Copied copied = copier.copy(uuid, pinned.get(uuid), terminal(), err());
        if (pinned.containsKey(uuid)) {
          copiedVersions.put(CubeNames.datasetId(target.cube, uuid).orElseThrow(), copied.version());
        }
        out.println("copied dataset " + uuid + " at version " + copied.version() + " to " + to.url() + ": "
            + copied.objects() + " objects, " + TextTable.bytes(copied.bytes()) + " transferred");
      }
      if (!copiedVersions.isEmpty()) {
        CubeCommitLog.of(to, target.cube).record(COPY_WRITER_ID, 0, copiedVersions);
      }
    }
    return Ktk.OK;
  }

}
