package io.ktk.flink.cli;

import io.ktk.flink.state.dataset.DatasetDeletion;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ktk delete}: removes a dataset (or every dataset of a cube) with all its objects.
 *
 * <p>Order, so that an interrupted delete never leaves something that looks like a dataset: the
 * published metadata first (plateau and cube discovery stop seeing it), then the log's snapshots and
 * its version 0 (this project's readers and writers then fail loudly on the remains rather than
 * write into them), then everything else under {@code <uuid>/}. Running the command again removes
 * what an interrupted run left. A cube's seed goes last, so that a half-deleted cube is no cube.
 * Jobs must not be writing to what is deleted.
 */
@Command(
    name = "delete",
    sortOptions = false,
    description = "Deletes a dataset, or every dataset of a cube, with all its files, indices and log.",
    footer = {
      "",
      "Asks for confirmation on a terminal; without one (a script), --yes is required.",
      "",
      "Example:",
      "  ktk delete --store file:///data --dataset events --yes"
    })
final class DeleteCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--yes", description = "Delete without asking.")
  boolean yes;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
    if (!yes && !terminal().interactive()) {
      throw new ParameterException(spec.commandLine(), "Refusing to delete " + target.describe()
          + " without confirmation: stdin is not a terminal; add --yes");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    List<String> uuids = target.isCube() ? Target.seedLast(store, target.uuids(store)) : target.uuids(store);
    long objects = 0;
    long bytes = 0;
    for (String uuid : uuids) {
      List<ObjectInfo> found = objectsOf(store, uuid);
      if (found.isEmpty()) {
        throw new NoSuchDatasetException("Cannot delete dataset '" + uuid + "' in " + store.url()
            + ": it has no objects there");
      }
      objects += found.size();
      bytes += found.stream().mapToLong(ObjectInfo::size).sum();
    }
    if (!yes) {
      String answer = terminal().ask("Delete " + target.describe() + " in " + store.url() + " (" + uuids.size()
          + " dataset(s), " + objects + " objects, " + TextTable.bytes(bytes) + ")? [y/N] ");
      if (answer == null || !List.of("y", "yes").contains(answer.trim().toLowerCase(Locale.ROOT))) {
        err().println("Nothing deleted.");
        return Ktk.ERROR;
      }
    }
    PrintWriter out = out();
    try (Progress progress = progress("deleting objects", objects)) {
      for (String uuid : uuids) {
        int deleted = delete(store, uuid, progress);
        out.println("deleted dataset " + uuid + ": " + deleted + " objects");
      }
    }
    if (target.isCube()) {
      // The cube's transaction log goes last: a cube created again under this name starts afresh.
      int log = DatasetDeletion.deleteCubeLog(store, target.cube);
      if (log > 0) {
        out.println("deleted the transaction log of cube " + target.cube + ": " + log + " objects");
      }
    }
    return Ktk.OK;
  }

  private static List<ObjectInfo> objectsOf(ObjectStore store, String uuid) throws IOException {
    return DatasetDeletion.objectsOf(store, uuid);
  }

  private static int delete(ObjectStore store, String uuid, Progress progress) throws IOException {
    return DatasetDeletion.delete(store, uuid, object -> progress.step());
  }
}
