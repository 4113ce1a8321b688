package io.ktk.flink.sink;

import java.time.LocalDateTime;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The rows of the sink tests: {@code id} (0, 1, 2, ...), the partition column {@code p} with
 * {@value #PARTITIONS} values, the index column {@code c} = id mod 50, {@code v} with a null every
 * 10th row, {@code s} with a null every 3rd row and {@code ts}, one second and one microsecond
 * apart. Every value follows from the id, so a row read back can be checked on its own.
 */
final class TestRows {
  static final int PARTITIONS = 7;
  static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("c", DataTypes.BIGINT()),
      DataTypes.FIELD("v", DataTypes.DOUBLE()),
      DataTypes.FIELD("s", DataTypes.STRING()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();
  static final TypeInformation<RowData> TYPE_INFO = InternalTypeInfo.of(ROW_TYPE);
  private static final LocalDateTime EPOCH = LocalDateTime.of(2024, 1, 1, 0, 0);

  private TestRows() {}

  static String p(long id) {
    return "p" + (id % PARTITIONS);
  }

  static long c(long id) {
    return id % 50;
  }

  static Double v(long id) {
    return id % 10 == 0 ? null : id * 0.5;
  }

  static String s(long id) {
    return id % 3 == 0 ? null : "s" + id;
  }

  static LocalDateTime ts(long id) {
    return EPOCH.plusSeconds(id).plusNanos(1000 * (id % 1000));
  }

  static RowData row(long id) {
    return GenericRowData.of(id, StringData.fromString(p(id)), c(id), v(id),
        s(id) == null ? null : StringData.fromString(s(id)), TimestampData.fromLocalDateTime(ts(id)));
  }

  /** Generates row {@code id} for the data generator source. */
  static GeneratorFunction<Long, RowData> generator() {
    return TestRows::row;
  }
}
