package io.ktk.flink.cli;

import io.ktk.flink.state.ValidationException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    try (ObjectStore to = ObjectStores.open(toUrl, toOptions)) {
      if (to.url().equals(store.url())) {
        throw new ValidationException("Cannot copy " + target.describe() + " from " + store.url()
            + " to itself; give another --to");
      }
      List<String> uuids = target.uuids(store);
      if (target.isCube()) {
        uuids = Target.seedLast(store, uuids);
      }
      DatasetCopier copier = new DatasetCopier(store, to);
      PrintWriter out = out();
      for (String uuid : uuids) {
        DatasetCopier.Copied copied = copier.copy(uuid, terminal(), err());
        out.println("copied dataset " + uuid + " at version " + copied.version() + " to " + to.url() + ": "
            + copied.objects() + " objects, " + TextTable.bytes(copied.bytes()) + " transferred");
      }
    }
    return Ktk.OK;
  }

}
