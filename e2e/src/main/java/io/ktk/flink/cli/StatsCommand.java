package io.ktk.flink.cli;

import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;

/** {@code ktk stats}: files, rows and bytes per partition and in total, from the log (no data file is read). */
@Command(
    name = "stats",
    sortOptions = false,
    description = "Shows files, rows and bytes per partition and in total, for a dataset or each dataset "
        + "of a cube.",
    footer = {
      "",
      "Rows and bytes are '?' for files whose counts the log does not know (files adopted from plateau).",
      "",
      "Example:",
      "  ktk stats --store file:///data --cube sales"
    })
final class StatsCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    PrintWriter out = out();
    List<String> uuids = target.uuids(store);
    for (int i = 0; i < uuids.size(); i++) {
      if (i > 0) {
        out.println();
      }
      print(out, store, DatasetSnapshot.latest(store, uuids.get(i)));
    }
    return Ktk.OK;
  }

  private static void print(PrintWriter out, ObjectStore store, DatasetSnapshot snapshot) throws IOException {
    out.println("dataset " + snapshot.uuid() + " at version " + snapshot.version() + ":");
    TextTable table = new TextTable(false, true, true, true, false)
        .add("partition", "files", "rows", "bytes", "file sizes " + FileSizes.HEADER);
    FileSizes all = new FileSizes();
    for (Partition partition : new PlainDatasetSnapshot(snapshot).partitionsInOrder()) {
      FileSizes sizes = FileSizes.of(partition.files());
      all.addAll(partition.files());
      table.add(partition.path().isEmpty() ? "(unpartitioned)" : partition.path(),
          TextTable.count(partition.files().size()), TextTable.count(partition.rows()), bytes(partition.files()),
          sizes.toString());
    }
    table.add("total", TextTable.count(snapshot.fileCount()), TextTable.count(snapshot.rows()),
        bytes(snapshot.bytes()), all.toString());
    table.print(out, "  ");
    out.println("  " + LogHealth.describe(store, snapshot.uuid()));
  }

  private static String bytes(List<DataFile> files) {
    long sum = 0;
    for (DataFile file : files) {
      if (file.bytes() < 0) {
        return "?";
      }
      sum += file.bytes();
    }
    return bytes(sum);
  }

  private static String bytes(long bytes) {
    return bytes < 0 ? "?" : TextTable.count(bytes) + " (" + TextTable.bytes(bytes) + ")";
  }
}
