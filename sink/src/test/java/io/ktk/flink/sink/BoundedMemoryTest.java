package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory stays bounded by the budget whatever the number of partitions: 10,000 partitions with a
 * 64 MB budget, in a JVM whose whole heap is 256 MB (Flink's own runtime included), with about
 * 300 MB of records to buffer before the only commit at the end of input. (With a budget of 2 GB
 * the same job runs out of heap.)
 */
class BoundedMemoryTest {
  private static final int PARTITIONS = 10_000;
  private static final long RECORDS = 3_000_000;

  @TempDir Path dir;

  @Test
  void tenThousandPartitionsWithASixtyFourMegabyteBudgetFitInATwoHundredFiftySixMegabyteHeap() throws Exception {
    Path output = dir.resolve("job.log");
    Path data = Files.createDirectories(dir.resolve("data"));
    Process job = new ProcessBuilder(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"),
            BoundedMemoryJob.class.getName(), data.toUri().toString(), Integer.toString(PARTITIONS),
            Long.toString(RECORDS), "64"))
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
    boolean finished = job.waitFor(8, TimeUnit.MINUTES);
    if (!finished) {
      job.destroyForcibly();
    }
    String log = Files.readString(output);
    assertThat(finished).as("the job finished in time; its output:\n" + tail(log)).isTrue();
    assertThat(job.exitValue()).as("exit code; output:\n" + tail(log)).isZero();
    assertThat(log).contains("max heap");

    DatasetSnapshot snapshot = DatasetSnapshot.latest(new LocalObjectStore(data), "many");
    assertThat(snapshot.partitions()).hasSize(PARTITIONS);
    assertThat(snapshot.rows()).isEqualTo(RECORDS);
  }

  private static String tail(String log) {
    return log.length() <= 6000 ? log : log.substring(log.length() - 6000);
  }
}
