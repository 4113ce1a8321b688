package io.ktk.flink.source.table;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.reader.RecordFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

/**
 * What {@link KartothekTableSource} scans: a table checked against a cube ({@link CubeTable}) or
 * a plain dataset ({@link DatasetTable}) at pinned versions, and how to make the Flink source of a
 * query over it.
 */
interface KartothekTable {
  /** The table's name, for messages. */
  String name();

  /** The declared physical columns, in order, typed as the store has them. */
  List<Field> columns();

  /** The partition columns, typed, in label order. */
  List<Field> partitionColumns();

  /** The partition values at the pinned versions (what Flink's partition pruning chooses from). */
  List<List<Object>> partitions();

  /** What is scanned, for operator names: {@code Kartothek[cube]} or {@code Kartothek[dataset]}. */
  String describe();

  /**
   * The source of the rows of {@code columns} (in this order; never empty) that pass {@code where},
   * as {@link Row}s of typed values in that column order.
   *
   * @param limit at most this many rows are needed ({@code LIMIT} pushed down; -1 for all): the source
   *     may read fewer files when it can tell without reading them
   */
  Source<Row, ?, ?> source(List<String> columns, List<Condition> where, long limit);

  /**
   * The same source, whose records {@code format} makes of the rows of {@code columns} (Flink's
   * internal rows, made from the column vectors), of type {@code type}.
   */
  Source<RowData, ?, ?> source(List<String> columns, List<Condition> where, long limit, RecordFormat<RowData> format,
      TypeInformation<RowData> type);

  /**
   * The primary key's columns when the scan is an upsert changelog ({@code +I}, {@code +U}, {@code -D}
   * keyed by them: a continuous scan of a dataset with a primary key), else empty (insert-only).
   */
  default List<String> changelogKey() {
    return List.of();
  }

  /** Whether the scan ends (false for a continuous cube table). */
  default boolean bounded() {
    return true;
  }

  /** The declared columns by name. */
  default Map<String, Field> columnsByName() {
    Map<String, Field> byName = new LinkedHashMap<>();
    columns().forEach(column -> byName.put(column.getName(), column));
    return byName;
  }
}
