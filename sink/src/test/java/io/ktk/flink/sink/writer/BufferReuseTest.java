package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition buffers keep their column blocks after a checkpoint wrote them (the next checkpoint
 * fills them again: taken from the writer's pool, not allocated), and give them back when the
 * memory is needed.
 */
class BufferReuseTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("s", DataTypes.STRING()),
      DataTypes.FIELD("v", DataTypes.DOUBLE())).getLogicalType();

  @TempDir Path dir;

  @Test
  void arraysSurviveACheckpointAndAreGivenBackWhenIdle() throws Exception {
    KartothekSinkConfig config = KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString())
        .dataset("events").partitionBy("p").build().config();
    MemoryBudget budget = new MemoryBudget(config.memoryBudgetBytes());
    DatasetWriter writer = new DatasetWriter(config, List.of(), new LocalObjectStore(dir), budget, false);

    appendRows(writer, "a", 10_000);
    long held = budget.used();
    FileBatch first = writer.prepareCommit("w", 4096, file -> {}).orElseThrow();
    assertThat(first.files()).hasSize(1);
    assertThat(first.files().get(0).rows()).isEqualTo(10_000);
    assertThat(budget.used()).as("the arrays are kept after the file").isEqualTo(held);

    appendRows(writer, "a", 10_000);
    assertThat(budget.used()).as("the same rows again fit the kept arrays").isEqualTo(held);
    FileBatch second = writer.prepareCommit("w", 4096, file -> {}).orElseThrow();
    assertThat(second.files().get(0).rows()).as("no row of the first round is written again").isEqualTo(10_000);

    writer.releaseIdle();
    assertThat(budget.buffered()).as("idle buffers give their blocks and arrays back").isZero();
    assertThat(budget.used()).as("their blocks wait in the pool").isPositive();
    budget.blocks().clear();
    assertThat(budget.used()).as("and go back to the heap when no rows will come").isZero();
  }

  @Test
  void buffersForgottenAfterTooManyPartitionsStopCountingAgainstTheBudget() throws Exception {
    KartothekSinkConfig config = KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString())
        .dataset("events").partitionBy("p").build().config();
    MemoryBudget budget = new MemoryBudget(config.memoryBudgetBytes());
    DatasetWriter writer = new DatasetWriter(config, List.of(), new LocalObjectStore(dir), budget, false);
    for (String partition : List.of("a", "b", "c")) {
      appendRows(writer, partition, 5_000);
    }
    // more partitions than the writer retains (here 2): routing starts afresh, the buffers go
    FileBatch batch = writer.prepareCommit("w", 2, file -> {}).orElseThrow();
    assertThat(batch.files()).hasSize(3);
    assertThat(budget.buffered()).as("no buffer is left to hold memory").isZero();
    budget.blocks().clear();
    assertThat(budget.used()).isZero();

    appendRows(writer, "d", 10);
    assertThat(writer.prepareCommit("w", 2, file -> {}).orElseThrow().files().get(0).rows()).isEqualTo(10);
  }

  private static void appendRows(DatasetWriter writer, String partition, int rows) {
    for (int i = 0; i < rows; i++) {
      writer.append(GenericRowData.of(StringData.fromString(partition), (long) i,
          i % 3 == 0 ? null : StringData.fromString("s" + i % 10), i % 4 == 0 ? null : i * 0.5));
    }
  }
}
