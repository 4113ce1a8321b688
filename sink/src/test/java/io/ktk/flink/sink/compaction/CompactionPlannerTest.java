package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which files the planner takes: whole versions, contiguous in the order readers give the files,
 * all small; enough of them, or an idle partition; outputs of about the target size.
 */
class CompactionPlannerTest {
  private static final long MB = 1 << 20;
  private static final Schema SCHEMA = new Schema(List.of(
      TestDataset.field("p", ArrowType.Utf8.INSTANCE), TestDataset.field("x", new ArrowType.Int(64, true))));
  /** Target 100 MB: files below 75 MB are small. */
  private static final CompactionSettings SETTINGS = CompactionSettings.defaults()
      .withTargetFileSize(100 * MB).withMinInputFiles(3).withIdlePartitionAfter(Duration.ofHours(1));

  @TempDir Path dir;
  private LocalObjectStore store;
  private CommitLog log;

  @BeforeEach
  void open() throws IOException {
    store = new LocalObjectStore(dir);
    log = CommitLog.open(store, "d", CommitLogOptions.DEFAULTS);
  }

  /** Commits one version adding files of the given sizes (in MB) to partition {@code p=<value>}. */
  private List<String> version(String value, long... megabytes) throws IOException {
    List<DataFile> files = new ArrayList<>();
    for (long size : megabytes) {
      String label = "p=" + value + "/" + PartitionLabel.newFileId();
      files.add(new DataFile(label, 10, size * MB, null));
      store.put("d/table/" + label + ".parquet", new byte[] {1}); // for the planner's look at the newest file
    }
    log.commit(DatasetChange.append(List.of("p"), SCHEMA, files));
    return files.stream().map(DataFile::label).toList();
  }

  private CompactionPlan plan(CompactionSettings settings, Instant now) throws IOException {
    return Compactor.of(store, "d", settings, Clock.fixed(now, ZoneOffset.UTC)).plan();
  }

  private static List<String> labels(PlannedOutput output) {
    return output.inputs().stream().map(CompactionInput::label).toList();
  }

  @Test
  void takesOnlyRunsOfWholeVersionsWhoseFilesAreAllSmall() throws IOException {
    List<String> v1 = version("a", 10, 10);
    List<String> v2 = version("a", 10, 80); // a large file: the version is a barrier, its small file too
    List<String> v3 = version("a", 10);
    List<String> v4 = version("a", 10, 10);
    List<String> v5 = version("a", 90); // large: ends the run
    List<String> v6 = version("a", 10);

    CompactionPlan plan = plan(SETTINGS, Instant.now());

    assertThat(plan.rewrites()).hasSize(1);
    PartitionRewrite rewrite = plan.rewrites().get(0);
    assertThat(rewrite.trigger()).isEqualTo(PartitionRewrite.Trigger.MIN_INPUT_FILES);
    assertThat(rewrite.filesBefore()).isEqualTo(9);
    assertThat(rewrite.outputs()).hasSize(1);
    List<String> expected = new ArrayList<>(v3);
    expected.addAll(v4.stream().sorted().toList());
    assertThat(labels(rewrite.outputs().get(0))).isEqualTo(expected);
    assertThat(rewrite.outputs().get(0).sequence()).isEqualTo(3);
    assertThat(List.of(v1, v2, v5, v6)).allSatisfy(version ->
        assertThat(rewrite.inputs()).extracting(CompactionInput::label).doesNotContainAnyElementsOf(version));
  }

  @Test
  void anEarlierOutputIsRewrittenOnlyOnceTheFilesAfterItAddUpToItsSize() throws IOException {
    List<String> earlier = version("a", 50); // a file compaction wrote: small, but most of the run
    List<String> v2 = version("a", 5);
    List<String> v3 = version("a", 5);
    List<String> v4 = version("a", 5, 5);

    CompactionPlan plan = plan(SETTINGS, Instant.now());
    assertThat(plan.rewrites()).hasSize(1);
    List<String> expected = new ArrayList<>(v2);
    expected.addAll(v3);
    expected.addAll(v4.stream().sorted().toList());
    assertThat(labels(plan.rewrites().get(0).outputs().get(0))).as("without the earlier output").isEqualTo(expected);

    // Once the small files after it add up to half its size, it is taken along.
    version("a", 10, 10);
    CompactionPlan later = plan(SETTINGS, Instant.now());
    assertThat(later.rewrites().get(0).inputs()).extracting(CompactionInput::label).contains(earlier.get(0));
  }

  @Test
  void leavesShortRunsAloneUntilThePartitionIsIdle() throws IOException {
    version("a", 10);
    version("a", 10);
    version("b", 10);
    Instant written = Instant.now();

    assertThat(plan(SETTINGS, written.plus(Duration.ofMinutes(59))).isEmpty()).isTrue();

    CompactionPlan idle = plan(SETTINGS, written.plus(Duration.ofHours(2)));
    assertThat(idle.rewrites()).extracting(PartitionRewrite::partition).containsExactly("p=a");
    assertThat(idle.rewrites().get(0).trigger()).isEqualTo(PartitionRewrite.Trigger.IDLE);
    assertThat(idle.inputFiles()).isEqualTo(2);
  }

  @Test
  void cutsARunIntoOutputsOfAboutTheTargetSizeWithoutSingleFileOutputs() throws IOException {
    for (int i = 0; i < 10; i++) {
      version("a", 30);
    }
    version("b", 70);
    version("b", 70);
    version("b", 70);

    CompactionPlan plan = plan(SETTINGS, Instant.now());

    // 300 MB in 3 outputs, cut where they pass 100 and 200 MB
    PartitionRewrite a = plan.rewrites().get(0);
    assertThat(a.outputs()).extracting(output -> output.inputs().size()).containsExactly(4, 3, 3);
    assertThat(a.outputs()).extracting(PlannedOutput::sequence).containsExactly(3L, 6L, 9L);
    // 210 MB round to 2 outputs, which would leave one of the three files alone: it joins its neighbour
    PartitionRewrite b = plan.rewrites().get(1);
    assertThat(b.outputs()).extracting(output -> output.inputs().size()).containsExactly(3);
  }

  @Test
  void plansOnlyThePartitionsAsked() throws IOException {
    for (int i = 0; i < 3; i++) {
      version("a", 1);
      version("b", 1);
    }
    Compactor compactor = Compactor.of(store, "d", SETTINGS);
    assertThat(compactor.plan(partition -> partition.equals("p=b")).rewrites())
        .extracting(PartitionRewrite::partition).containsExactly("p=b");
    assertThat(compactor.plan().rewrites()).extracting(PartitionRewrite::partition).containsExactly("p=a", "p=b");
  }
}
