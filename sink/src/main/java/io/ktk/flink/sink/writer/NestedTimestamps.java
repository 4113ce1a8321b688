package io.ktk.flink.sink.writer;

import io.ktk.flink.state.types.TimestampCoercion;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Checks the timestamps inside a nested column (in lists and structs at any depth) as {@link
 * RecordValidator} checks top-level ones: no sub-microsecond part, within the microsecond range.
 * Only built for columns that hold timestamps somewhere.
 */
final class NestedTimestamps {
  private final Check check;

  private interface Check {
    void check(Object value);
  }

  private NestedTimestamps(Check check) {
    this.check = check;
  }

  /** A checker for column {@code column} of nested type {@code type}, or null when it holds no timestamps. */
  static NestedTimestamps of(String dataset, String column, LogicalType type) {
    return holdsTimestamps(type) ? new NestedTimestamps(check(dataset, column, type)) : null;
  }

  /** Checks the value of the column at {@code pos} of {@code row}. */
  void check(RowData row, int pos, RowData.FieldGetter getter) {
    Object value = getter.getFieldOrNull(row);
    if (value != null) {
      check.check(value);
    }
  }

  private static Check check(String dataset, String column, LogicalType type) {
    if (type instanceof ArrayType array) {
      LogicalType elementType = array.getElementType();
      ArrayData.ElementGetter elements = ArrayData.createElementGetter(elementType);
      Check element = holdsTimestamps(elementType) ? check(dataset, column, elementType) : null;
      return value -> {
        ArrayData data = (ArrayData) value;
        for (int i = 0; i < data.size(); i++) {
          Object item = elements.getElementOrNull(data, i);
          if (item != null) {
            element.check(item);
          }
        }
      };
    }
    if (type instanceof RowType row) {
      List<LogicalType> fields = row.getChildren();
      RowData.FieldGetter[] getters = new RowData.FieldGetter[fields.size()];
      Check[] checks = new Check[fields.size()];
      for (int i = 0; i < getters.length; i++) {
        getters[i] = RowData.createFieldGetter(fields.get(i), i);
        checks[i] = holdsTimestamps(fields.get(i)) ? check(dataset, column, fields.get(i)) : null;
      }
      return value -> {
        RowData data = (RowData) value;
        for (int i = 0; i < getters.length; i++) {
          if (checks[i] != null) {
            Object field = getters[i].getFieldOrNull(data);
            if (field != null) {
              checks[i].check(field);
            }
          }
        }
      };
    }
    return value -> TimestampCoercion.toMicros(dataset, column, (TimestampData) value);
  }

  private static boolean holdsTimestamps(LogicalType type) {
    LogicalTypeRoot root = type.getTypeRoot();
    if (root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE || root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      return true;
    }
    return type.getChildren().stream().anyMatch(NestedTimestamps::holdsTimestamps);
  }
}
