package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part files whose flat columns are encoded page by page from the buffer's arrays ({@link
 * ChunkEncoder}): several row groups and several pages per chunk, columns without nulls, with some
 * and with none in a whole row group, dictionaries for repetitive values (NaN and -0.0 among them)
 * and plain values for distinct ones. This project's reader and pyarrow read every value back,
 * and pyarrow finds each row group's statistics (min, max, null count) present and true to its values
 * (floating point ones too, NaN kept out of the bounds).
 */
class PartFilePagesTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("tiny", DataTypes.TINYINT()),
      DataTypes.FIELD("small", DataTypes.SMALLINT()),
      DataTypes.FIELD("few", DataTypes.INT()),
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("late", DataTypes.BIGINT()),
      DataTypes.FIELD("f", DataTypes.FLOAT()),
      DataTypes.FIELD("d", DataTypes.DOUBLE()),
      DataTypes.FIELD("dfew", DataTypes.DOUBLE()),
      DataTypes.FIELD("day", DataTypes.DATE()),
      DataTypes.FIELD("t", DataTypes.TIME(3)),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6)),
      DataTypes.FIELD("word", DataTypes.STRING()),
      DataTypes.FIELD("name", DataTypes.STRING()),
      DataTypes.FIELD("bin", DataTypes.BYTES())).getLogicalType();
  private static final int ROWS = 60_000;
  private static final String[] WORDS = {"", "a", "b,c", "héllo", "日本", "z".repeat(300)};
  private static final double[] FEW_DOUBLES = {0.0, -0.0, Double.NaN, 1.5, -2.25, Double.POSITIVE_INFINITY};
  private static final LocalDateTime T0 = LocalDateTime.of(2024, 1, 1, 0, 0);

  @TempDir Path dir;

  @Test
  void valuesAndStatisticsReadBackWithSeveralRowGroupsAndPages() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    List<List<Object>> expected = new ArrayList<>();
    DataFile file = write(store, expected);
    String key = "ds/table/" + file.label() + ".parquet";

    try (ParquetRowsReader reader = ParquetRowsReader.open(store, key)) {
      assertThat(reader.rowGroups()).as("row groups").hasSizeGreaterThan(1);
      Iterator<List<Object>> rows = reader.rows(ROW_TYPE.getFieldNames());
      for (int i = 0; i < ROWS; i++) {
        assertThat(comparable(rows.next())).as("row %s", i).isEqualTo(comparable(expected.get(i)));
      }
      assertThat(rows.hasNext()).isFalse();
    }

    PyChecks checks = PyChecks.run("""
        import pyarrow.parquet as pq, pyarrow.compute as pc
        path, rows = sys.argv[1], int(sys.argv[2])
        f = pq.ParquetFile(path)
        table = f.read()
        check("rows", lambda: (table.num_rows == rows, table.num_rows))
        check("row groups", lambda: (f.metadata.num_row_groups > 1, f.metadata.num_row_groups))
        def stats_true():
            bad = []
            for g in range(f.metadata.num_row_groups):
                group = f.read_row_group(g)
                for j, name in enumerate(group.column_names):
                    col = group.column(name)
                    st = f.metadata.row_group(g).column(j).statistics
                    if st is None:
                        bad.append((g, name, "no statistics")); continue
                    if st.null_count != col.null_count:
                        bad.append((g, name, "nulls", st.null_count, col.null_count))
                    values = [v for v in col.to_pylist() if v is not None and v == v]
                    if values and not st.has_min_max:
                        bad.append((g, name, "no min/max"))
                    if values and st.has_min_max:
                        lo, hi = min(values), max(values)
                        if not (same(st.min, lo) or st.min == lo) or not (same(st.max, hi) or st.max == hi):
                            bad.append((g, name, "min/max", st.min, st.max, lo, hi))
                    if not values and col.null_count == len(col) and st.has_min_max:
                        bad.append((g, name, "min/max of nothing"))
            return not bad, bad[:5]
        check("statistics", stats_true)
        def dictionaries():
            md = f.metadata.row_group(0)
            got = {md.column(j).path_in_schema: md.column(j).has_dictionary_page for j in range(md.num_columns)}
            want = {"few": True, "word": True, "dfew": True, "tiny": True, "id": False, "d": False, "ts": False,
                    "name": False}
            return all(got[k] == v for k, v in want.items()), got
        check("dictionaries", dictionaries)
        """, dir.resolve(key).toString(), Integer.toString(ROWS));
    for (String name : List.of("rows", "row groups", "statistics", "dictionaries")) {
      checks.assertOk(name);
    }

    assertThat(dataPages(store, key, 3)).as("data pages of id in the first row group").isGreaterThan(1);
  }

  /** Counts the data pages of a column chunk of the first row group by walking its page headers. */
  private static int dataPages(LocalObjectStore store, String key, int column) throws Exception {
    ColumnChunkMetaData chunk;
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, key)) {
      chunk = reader.rowGroups().get(0).getColumns().get(column);
    }
    byte[] file = store.get(key);
    long start = chunk.hasDictionaryPage() ? chunk.getDictionaryPageOffset() : chunk.getFirstDataPageOffset();
    ByteArrayInputStream in = new ByteArrayInputStream(file, (int) start, (int) chunk.getTotalSize());
    int pages = 0;
    while (in.available() > 0) {
      PageHeader header = Util.readPageHeader(in);
      pages += header.getType() == PageType.DATA_PAGE ? 1 : 0;
      in.skipNBytes(header.getCompressed_page_size());
    }
    return pages;
  }

  private static DataFile write(LocalObjectStore store, List<List<Object>> expected) throws Exception {
    Schema schema = FlinkArrowTypes.toSchema(ROW_TYPE);
    List<LogicalType> types = ROW_TYPE.getChildren();
    int[] positions = new int[types.size()];
    Arrays.setAll(positions, i -> i);
    DataColumns layout = new DataColumns("ds", ROW_TYPE, positions, types, schema.getFields(), new int[0]);
    PartitionLabel label = new PartitionLabel(List.of(), "0").withFileId(PartitionLabel.newFileId());
    PartitionBuffer buffer = new PartitionBuffer(new PartitionRouter.Partition(label, null), layout,
        new MemoryBudget(1L << 30));
    Random random = new Random(20261125L);
    for (int i = 0; i < ROWS; i++) {
      Object[] values = new Object[types.size()];
      values[0] = (byte) (i % 7 - 3);
      values[1] = i % 3 == 0 ? null : (short) (random.nextInt(65536) - 32768);
      values[2] = i % 5 == 0 ? null : i % 10;
      values[3] = (long) i * 1_000_003L - 30_000_000_000L;
      values[4] = i < 40_000 ? null : random.nextLong();
      values[5] = random.nextInt(10) == 0 ? null : random.nextFloat() * 100 - 50;
      values[6] = random.nextInt(10) == 0 ? null : random.nextGaussian() * 1e6;
      values[7] = FEW_DOUBLES[i % FEW_DOUBLES.length];
      values[8] = LocalDate.of(2024, 1, 1).plusDays(i % 400);
      values[9] = LocalTime.ofNanoOfDay((long) i * 1_000_000L % 86_400_000_000_000L);
      values[10] = T0.plusNanos(i * 1_000L + (i % 3) * 1_000_000_000L);
      values[11] = i % 4 == 0 ? null : WORDS[i % WORDS.length];
      values[12] = random.nextInt(5) == 0 ? null : "name-" + i;
      values[13] = i % 6 == 0 ? null : ("b" + i % 50).getBytes(StandardCharsets.UTF_8);
      buffer.append(flinkRow(values));
      expected.add(typedRow(values));
    }
    ParquetWriteOptions options = ParquetWriteOptions.defaults().withRowGroupSizeBytes(1 << 20)
        .withPageSizeBytes(16 << 10);
    return new PartFileWriter(store, "ds", schema, options).write(buffer, label);
  }

  private static GenericRowData flinkRow(Object[] values) {
    GenericRowData row = new GenericRowData(values.length);
    for (int c = 0; c < values.length; c++) {
      Object value = values[c];
      if (value instanceof LocalDate day) {
        value = (int) day.toEpochDay();
      } else if (value instanceof LocalTime time) {
        value = (int) (time.toNanoOfDay() / 1_000_000);
      } else if (value instanceof LocalDateTime ts) {
        value = TimestampData.fromLocalDateTime(ts);
      } else if (value instanceof String text) {
        value = StringData.fromString(text);
      }
      row.setField(c, value);
    }
    return row;
  }

  /** The row with binaries as hex, so that equals compares them by content (NaN equals NaN, -0.0 is not 0.0). */
  private static List<Object> comparable(List<Object> row) {
    return row.stream().map(v -> v instanceof byte[] bytes ? (Object) HexFormat.of().formatHex(bytes) : v).toList();
  }

  /** The values as this project's reader returns them: integers as Long, floats as Double. */
  private static List<Object> typedRow(Object[] values) {
    List<Object> row = new ArrayList<>();
    for (Object value : values) {
      if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
        row.add(((Number) value).longValue());
      } else if (value instanceof Float f) {
        row.add(f.doubleValue());
      } else {
        row.add(value);
      }
    }
    return row;
  }
}
