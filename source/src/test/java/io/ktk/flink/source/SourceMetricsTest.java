package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.reader.CubeSourceReader;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source's metric of row groups left out by footer statistics counts every split a reader
 * reads, as many as the in-process reader leaves out, however often Flink replaces the reader's
 * split fetcher (it makes a new one, with a new split reader, when an idle one gets splits again).
 */
class SourceMetricsTest {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
      .setNumberSlotsPerTaskManager(2)
      .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
      .build());

  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field ITEM = field("item", new ArrowType.Int(64, true));
  private static final Field STOCK = field("stock", new ArrowType.Int(64, true));

  @TempDir Path dir;

  @Test
  void prunedRowGroupsCountEverySplitOfTheJob() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, new CubeSpec("shops", List.of("item"), List.of("day"), "seed", new TreeSet<>()));
    List<List<Object>> seed = new ArrayList<>();
    List<List<Object>> lowStock = new ArrayList<>();
    List<List<Object>> highStock = new ArrayList<>();
    for (int d = 0; d < 8; d++) {
      LocalDate day = LocalDate.of(2024, 1, 1).plusDays(d);
      for (long item = 0; item < 20; item++) {
        seed.add(Arrays.asList(day, item));
        (item < 15 ? lowStock : highStock).add(Arrays.asList(day, item, item < 15 ? item % 5 : 50L + item));
      }
    }
    cube.dataset("seed", new Schema(List.of(DAY, ITEM))).commit(seed);
    // a file per day whose statistics rule it out (stock below 5), and one per day that they do not
    cube.dataset("stock", new Schema(List.of(DAY, ITEM, STOCK))).commit(lowStock).commit(highStock);
    CubeQuery query = CubeQuery.builder().where("stock > 10").build();

    CubeReader inProcess = new CubeReader(store, CubeSnapshot.latest(store, "shops").plan(query));
    long rows = 0;
    for (var batches = inProcess.batches(); batches.hasNext(); ) {
      rows += batches.next().rowCount();
    }
    assertThat(rows).isEqualTo(8 * 5);
    assertThat(inProcess.rowGroups().pruned()).as("in process").isEqualTo(8);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "shops").query(query)
        .maxPartitionsPerSplit(1).build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "cube").sinkTo(new DiscardingSink<>());
    JobID job = env.execute("pruned row groups").getJobID();

    var counters = REPORTER.getMetricsByIdentifiers(job).entrySet().stream()
        .filter(metric -> metric.getKey().endsWith("." + CubeSourceReader.PRUNED_ROW_GROUPS)).toList();
    assertThat(counters).hasSize(1);
    assertThat(((Counter) counters.get(0).getValue()).getCount()).isEqualTo(inProcess.rowGroups().pruned());
  }
}
