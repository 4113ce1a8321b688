package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class SinkMetricsTest {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
      .setNumberSlotsPerTaskManager(4)
      .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
      .build());

  @TempDir
  Path dir;

  private static RowData rowWithoutPartitionEvery50th(long id) {
    GenericRowData row = (GenericRowData) TestRows.row(id);
    if (id % 50 == 49) {
      row.setField(1, null);
    }
    return row;
  }

  @Test
  void metricsCountRecordsRejectionsFilesBytesAndCommits() throws Exception {
    long count = 5_000;
    long rejected = count / 50;
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .validationPolicy(ValidationPolicy.DEAD_LETTER)
        .build()
        .addTo(env.fromSource(new DataGeneratorSource<>(SinkMetricsTest::rowWithoutPartitionEvery50th, count,
            TestRows.TYPE_INFO), WatermarkStrategy.noWatermarks(), "rows"))
        .sinkTo(new DiscardingSink<>());
    JobID job = env.execute("metrics").getJobID();

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "events");
      long files = snapshot.fileCount();
      long bytes = snapshot.partitions().stream().flatMap(p -> p.files().stream()).mapToLong(DataFile::bytes).sum();
      assertThat(sum(job, "kartothek.recordsIn")).isEqualTo(count - rejected);
      assertThat(sum(job, "kartothek.recordsRejected")).isEqualTo(rejected);
      assertThat(sum(job, "kartothek.filesWritten")).isEqualTo(files);
      assertThat(sum(job, "kartothek.bytesWritten")).isEqualTo(bytes);
      assertThat(gauges(job, "kartothek.bufferedBytes")).isNotEmpty().allSatisfy(v -> assertThat(v).isEqualTo(0L));
      assertThat(sum(job, "kartothek.commits")).isEqualTo(snapshot.version() + 1);
      assertThat(gauges(job, "kartothek.lastCommittedVersion")).contains(snapshot.version());
      assertThat(metrics(job, "kartothek.commitLatencyMillis").values())
          .allSatisfy(m -> assertThat(((Histogram) m).getCount()).isLessThanOrEqualTo(snapshot.version() + 1))
          .anySatisfy(m -> assertThat(((Histogram) m).getCount()).isEqualTo(snapshot.version() + 1));
      assertThat(snapshot.partitions().stream().mapToLong(Partition::rows).sum()).isEqualTo(count - rejected);
    }
  }

  /** The metrics {@code kartothek.<name>} of the job's operators, by group. */
  private static Map<String, Metric> metrics(JobID job, String name) {
    String metric = name.substring("kartothek.".length());
    Map<String, Metric> found = new java.util.HashMap<>();
    REPORTER.getMetricsByGroup().forEach((group, byName) -> {
      String[] scope = group.getScopeComponents();
      if (job.toString().equals(group.getAllVariables().get("<job_id>")) && scope.length > 0
          && scope[scope.length - 1].equals("kartothek") && byName.containsKey(metric)) {
        found.put(String.join(".", scope), byName.get(metric));
      }
    });
    assertThat(found).as("metrics named %s", name).isNotEmpty();
    return found;
  }

  private static long sum(JobID job, String name) {
    return metrics(job, name).values().stream().mapToLong(m -> ((Counter) m).getCount()).sum();
  }

  private static java.util.List<Object> gauges(JobID job, String name) {
    return metrics(job, name).values().stream().map(m -> ((Gauge<?>) m).getValue()).map(v -> (Object) v).toList();
  }
}
