package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.PageChecksumCount;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part files encode columns of mostly distinct values (ids, timestamps, measurements) plainly from
 * the start and keep dictionaries for repetitive ones, and the values read back either way.
 */
class PartFileEncodingTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("word", DataTypes.STRING()),
      DataTypes.FIELD("name", DataTypes.STRING()),
      DataTypes.FIELD("v", DataTypes.DOUBLE()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6)),
      DataTypes.FIELD("few", DataTypes.INT())).getLogicalType();
  private static final int ROWS = 5_000;
  private static final LocalDateTime T0 = LocalDateTime.of(2024, 1, 1, 0, 0);

  @TempDir Path dir;

  @Test
  void repetitiveColumnsKeepTheirDictionaryAndDistinctOnesArePlain() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    DataFile file = write(store);

    Map<String, ColumnChunkMetaData> chunks = new HashMap<>();
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "ds/table/" + file.label() + ".parquet")) {
      assertThat(reader.rowGroups()).hasSize(1);
      for (ColumnChunkMetaData chunk : reader.rowGroups().get(0).getColumns()) {
        chunks.put(chunk.getPath().toDotString(), chunk);
      }
      assertThat(chunks.get("id").hasDictionaryPage()).as("id").isFalse();
      assertThat(chunks.get("name").hasDictionaryPage()).as("name").isFalse();
      assertThat(chunks.get("v").hasDictionaryPage()).as("v").isFalse();
      assertThat(chunks.get("ts").hasDictionaryPage()).as("ts").isFalse();
      assertThat(chunks.get("word").hasDictionaryPage()).as("word").isTrue();
      assertThat(chunks.get("few").hasDictionaryPage()).as("few").isTrue();

      Iterator<List<Object>> rows = reader.rows(List.of("id", "word", "name", "v", "ts", "few"));
      for (int i = 0; i < ROWS; i++) {
        assertThat(rows.next()).as("row %s", i).isEqualTo(expected(i));
      }
      assertThat(rows.hasNext()).isFalse();
    }
  }

  @Test
  void everyPageCarriesAChecksum() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    DataFile file = write(store);

    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "ds/table/" + file.label() + ".parquet")) {
      PageChecksumCount pages = reader.verifyPageChecksums();
      assertThat(pages.withoutChecksum()).isZero();
      // six columns, two of them with a dictionary page before their data pages
      assertThat(pages.verified()).isGreaterThanOrEqualTo(8);
    }
  }

  @Test
  void columnsJudgeTheirDistinctnessOnTheirFirstValues() {
    assertThat(column(DataTypes.BIGINT(), 5_000, i -> (long) i).mostlyDistinct()).as("ids").isTrue();
    assertThat(column(DataTypes.DOUBLE(), 5_000, i -> i * 0.5).mostlyDistinct()).as("measurements").isTrue();
    assertThat(column(DataTypes.STRING(), 5_000, i -> StringData.fromString("n" + i)).mostlyDistinct()).as("names")
        .isTrue();
    assertThat(column(DataTypes.INT(), 5_000, i -> i % 100).mostlyDistinct()).as("100 values").isFalse();
    assertThat(column(DataTypes.STRING(), 5_000, i -> StringData.fromString("w" + i % 1000)).mostlyDistinct())
        .as("1000 words").isFalse();
    // 0 and -0.0 are values like any other; a handful of values says nothing
    assertThat(column(DataTypes.DOUBLE(), 5_000, i -> i % 2 == 0 ? 0.0 : -0.0).mostlyDistinct()).isFalse();
    assertThat(column(DataTypes.BIGINT(), 20, i -> (long) i).mostlyDistinct()).as("20 rows").isFalse();
    // only the first 4,096 values are looked at: distinct ones after them do not count
    assertThat(column(DataTypes.BIGINT(), 100_000, i -> i < 4_096 ? 1L : (long) i).mostlyDistinct()).isFalse();
  }

  private static ColumnBuffer column(org.apache.flink.table.types.DataType type, int rows,
      java.util.function.IntFunction<Object> value) {
    ColumnBuffer column = ColumnBuffer.forType(type.getLogicalType(), bytes -> {}, new MemoryBudget(1L << 30).blocks());
    for (int i = 0; i < rows; i++) {
      column.append(GenericRowData.of(value.apply(i)), 0);
    }
    return column;
  }

  private static DataFile write(LocalObjectStore store) throws Exception {
    Schema schema = FlinkArrowTypes.toSchema(ROW_TYPE);
    List<org.apache.flink.table.types.logical.LogicalType> types = ROW_TYPE.getChildren();
    DataColumns layout = new DataColumns("ds", ROW_TYPE, new int[] {0, 1, 2, 3, 4, 5}, types, schema.getFields(),
        new int[0]);
    MemoryBudget budget = new MemoryBudget(1L << 30);
    PartitionLabel label = new PartitionLabel(List.of(), "0").withFileId(PartitionLabel.newFileId());
    PartitionBuffer buffer = new PartitionBuffer(new PartitionRouter.Partition(label, null), layout, budget);
    for (int i = 0; i < ROWS; i++) {
      GenericRowData row = new GenericRowData(6);
      row.setField(0, (long) i * 7);
      row.setField(1, StringData.fromString("w" + i % 10));
      row.setField(2, i % 3 == 0 ? null : StringData.fromString("name-" + i));
      row.setField(3, i % 5 == 0 ? null : i * 0.25);
      row.setField(4, TimestampData.fromLocalDateTime(T0.plusNanos(i * 1_000L)));
      row.setField(5, i % 4);
      buffer.append(row);
    }
    PartFileWriter writer = new PartFileWriter(store, "ds", schema, ParquetWriteOptions.defaults());
    return writer.write(buffer, label);
  }

  private static List<Object> expected(int i) {
    List<Object> row = new ArrayList<>();
    row.add((long) i * 7);
    row.add("w" + i % 10);
    row.add(i % 3 == 0 ? null : "name-" + i);
    row.add(i % 5 == 0 ? null : i * 0.25);
    row.add(T0.plusNanos(i * 1_000L));
    row.add((long) (i % 4));
    return row;
  }
}
