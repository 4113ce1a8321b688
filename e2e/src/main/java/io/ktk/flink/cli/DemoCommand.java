package io.ktk.flink.cli;

import io.ktk.flink.demo.DemoJob;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ktk demo}: runs the demo job on an embedded Flink into a local directory (or any store),
 * then queries the cube it wrote and shows the commands to look further.
 */
@Command(
    name = "demo",
    sortOptions = false,
    description = "Streams generated sensor data through the Kartothek cube sink on an embedded Flink, exactly "
        + "once, into the cube '" + DemoJob.CUBE + "': the seed '" + DemoJob.READINGS + "' (partitioned by day, "
        + "indexed by sensor) and the enrichments '" + DemoJob.CALIBRATION + "' and '" + DemoJob.ALERTS + "', "
        + "committed together at every checkpoint; then runs a cube query. Running it again adds more readings.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Option(names = "--store", paramLabel = "URL",
      description = "Where to write (default: the directory ktk-data under the current directory).")
  String store;

  @Option(names = "--store-option", paramLabel = "KEY=VALUE", description = "A store option, repeatable.")
  Map<String, String> storeOptions = Map.of();

  @Option(names = "--records", paramLabel = "N", defaultValue = "200000", description = "Readings to generate (default: ${DEFAULT-VALUE}).")
  long records;

  @Option(names = "--parallelism", paramLabel = "N", defaultValue = "2", description = "Writer parallelism (default: ${DEFAULT-VALUE}).")
  int parallelism;

  @Option(names = "--checkpoint-interval", paramLabel = "DURATION", defaultValue = "1s",
      converter = DurationConverter.class, description = "Checkpoint (and commit) interval (default: ${DEFAULT-VALUE}).")
  Duration checkpointInterval;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    String url = store != null ? store : Path.of("ktk-data").toAbsolutePath().toUri().toString();
    PrintWriter out = spec.commandLine().getOut();
    long firstEvent;
    try (ObjectStore opened = ObjectStores.open(url, storeOptions)) {
      firstEvent = seedRows(opened);
    }
    out.println("Streaming " + records + " sensor readings (events " + firstEvent + " to " + (firstEvent + records - 1)
        + ") into cube '" + DemoJob.CUBE + "' in " + url + " (embedded Flink, parallelism " + parallelism
        + ", checkpoint every " + checkpointInterval.toMillis() + " ms)...");
    out.flush();
    DemoJob.run(url, storeOptions, firstEvent, records, checkpointInterval, parallelism);

    try (ObjectStore opened = ObjectStores.open(url, storeOptions)) {
      CubeSnapshot cube = CubeSnapshot.latest(opened, DemoJob.CUBE);
      out.println();
      out.println("Cube '" + DemoJob.CUBE + "' (dimensions " + String.join(", ", cube.spec().dimensionColumns())
          + "; partitioned by " + String.join(", ", cube.spec().partitionColumns()) + "):");
      for (DatasetSnapshot dataset : cube.datasets().values()) {
        out.println("  " + dataset.uuid() + ": version " + dataset.version() + ", " + dataset.partitions().size()
            + " partitions, " + dataset.fileCount() + " Parquet files, " + dataset.rows() + " rows, "
            + TextTable.bytes(dataset.bytes()) + (dataset.indexColumns().isEmpty() ? ""
            : ", indexed by " + String.join(", ", dataset.indexColumns())));
      }
      out.println("Data and metadata are under " + url + " (Kartothek, plateau and pyarrow read them as they are).");
    }

    String storeArg = "--store " + url;
    List<String> query = new ArrayList<>(List.of("query", "--store", url, "--cube", DemoJob.CUBE,
        "--columns", "day,sensor,ts,reading,offset,location,level",
        "--where", "sensor == 'sensor-7' and level == 'high'", "--limit", "5", "--format", "table"));
    out.println();
    out.println("A cube query: readings of sensor-7 with a high alert, joined with their calibration (first 5):");
    out.println("  ./ktk query " + storeArg + " --cube " + DemoJob.CUBE
        + " --columns day,sensor,ts,reading,offset,location,level --where \"sensor == 'sensor-7' and level == 'high'\""
        + " --limit 5 --format table");
    out.println();
    out.flush();
    int code = Ktk.run(out, spec.commandLine().getErr(), Terminal.none(), query.toArray(String[]::new));
    if (code != Ktk.OK) {
      return code;
    }
    out.println();
    out.println("Look further:");
    out.println("  ./ktk info  " + storeArg + " --cube " + DemoJob.CUBE);
    out.println("  ./ktk stats " + storeArg + " --dataset " + DemoJob.CUBE + "++" + DemoJob.READINGS);
    out.println("  ./ktk query " + storeArg + " --cube " + DemoJob.CUBE
        + " --where \"day == '2026-11-18' and 0 <= reading < 12\" --format table");
    out.println("  ./ktk read  " + storeArg + " --dataset " + DemoJob.CUBE + "++" + DemoJob.ALERTS + " --format jsonl");
    out.println("  ./ktk validate " + storeArg + " --cube " + DemoJob.CUBE);
    return Ktk.OK;
  }

  /** The readings the cube's seed holds, so that a second run continues the numbering. */
  private static long seedRows(ObjectStore store) throws java.io.IOException {
    try {
      return DatasetSnapshot.latest(store, DemoJob.CUBE + "++" + DemoJob.READINGS).rows();
    } catch (NoSuchDatasetException e) {
      return 0;
    }
  }
}
