package io.ktk.flink.cli;

import io.ktk.flink.demo.DemoJob;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ktk demo}: runs the demo job on an embedded Flink into a local directory (or any store),
 * then shows what it wrote and the commands to look further.
 */
@Command(
    name = "demo",
    sortOptions = false,
    description = "Streams generated sensor readings through the Kartothek sink on an embedded Flink, exactly "
        + "once, into the dataset '" + DemoJob.DATASET + "' (partitioned by day, indexed by sensor), then shows "
        + "the result. Running it again appends another batch of readings.")
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
    out.println("Streaming " + records + " sensor readings into dataset '" + DemoJob.DATASET + "' in " + url
        + " (embedded Flink, parallelism " + parallelism + ", checkpoint every " + checkpointInterval.toMillis()
        + " ms)...");
    out.flush();
    DemoJob.run(url, storeOptions, records, checkpointInterval, parallelism);
    try (ObjectStore opened = ObjectStores.open(url, storeOptions)) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(opened, DemoJob.DATASET);
      out.println();
      out.println("Dataset '" + snapshot.uuid() + "' is at version " + snapshot.version() + ": "
          + snapshot.partitions().size() + " partitions, " + snapshot.fileCount() + " Parquet files, "
          + snapshot.rows() + " rows, " + TextTable.bytes(snapshot.bytes()) + ".");
      out.println("Data and metadata are under " + url + " (plateau and pyarrow read them as they are).");
      String storeArg = "--store " + url;
      out.println();
      out.println("Look further:");
      out.println("  ./ktk info  " + storeArg + " --dataset " + DemoJob.DATASET);
      out.println("  ./ktk stats " + storeArg + " --dataset " + DemoJob.DATASET);
      out.println("  ./ktk read  " + storeArg + " --dataset " + DemoJob.DATASET
          + " --where \"sensor == 'sensor-7' and day == '2026-11-18'\" --format csv");
      out.println("  ./ktk validate " + storeArg + " --dataset " + DemoJob.DATASET);
    }
    return Ktk.OK;
  }
}
