package io.ktk.flink.source.reader;

import io.ktk.flink.source.engine.ResultBatch;
import java.io.Serializable;
import java.util.function.IntFunction;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * How a source turns the rows of a {@link ResultBatch} into its records: {@link Row}s of typed
 * values ({@link #ROWS}, the DataStream sources, which SQL converts further). Made once per batch,
 * so that a format can look at the batch's columns once and then make each row from them. Every
 * row of a batch has one {@link RowKind}: {@code +I} but in an upsert changelog ({@code docs/cdc.md}),
 * whose discoveries emit {@code +U} and {@code -D} batches. Serializable: it travels with the source.
 *
 * @param <T> the record type
 */
@FunctionalInterface
public interface RecordFormat<T> extends Serializable {
  /**
   * Rows of typed values, by the project's convention ({@code Long}, {@code String}, {@code
   * LocalDate}, ...); lists and structs as mutable collections, which Flink's Kryo can copy.
   */
  RecordFormat<Row> ROWS = (batch, kind) -> {
    int[] nested = MutableNestedValues.columns(batch.schema());
    if (nested.length == 0) {
      return row -> Row.ofKind(kind, batch.values(row));
    }
    return row -> {
      Object[] values = batch.values(row);
      for (int column : nested) {
        values[column] = MutableNestedValues.copy(values[column]);
      }
      return Row.ofKind(kind, values);
    };
  };

  /** The record of each row of {@code batch}, by row number, of kind {@code kind}. */
  IntFunction<T> records(ResultBatch batch, RowKind kind);
}
