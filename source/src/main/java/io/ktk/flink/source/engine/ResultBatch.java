package io.ktk.flink.source.engine;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.vector.TypedVector;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Result rows of a cube query as columns: the rows of one partition of a query group, in the
 * query's order, one {@link TypedVector} per output column of {@link #schema()}. Consumers that
 * work column by column read the vectors; {@link #row} gives a row of typed values.
 */
public final class ResultBatch {
  private final Schema schema;
  private final List<TypedVector> columns;
  private final int rowCount;

  ResultBatch(Schema schema, List<TypedVector> columns, int rowCount) {
    this.schema = requireNonNull(schema, "schema is null");
    this.columns = List.copyOf(columns);
    this.rowCount = rowCount;
    if (this.columns.size() != schema.getFields().size()) {
      throw new IllegalArgumentException(columns.size() + " columns for schema " + schema);
    }
  }

  /**
   * A batch of rows made outside the engine (the {@code -D} rows of an upsert changelog): {@code
   * rowCount} rows of {@code columns}, one per field of {@code schema}.
   */
  public static ResultBatch of(Schema schema, List<TypedVector> columns, int rowCount) {
    return new ResultBatch(schema, columns, rowCount);
  }

  public Schema schema() {
    return schema;
  }

  public int rowCount() {
    return rowCount;
  }

  /** The values of output column {@code index}. */
  public TypedVector column(int index) {
    return columns.get(index);
  }

  /** The rows {@code rows} (in that order) of this batch. */
  ResultBatch slice(int[] rows) {
    List<TypedVector> sliced = new ArrayList<>(columns.size());
    for (TypedVector column : columns) {
      sliced.add(column.gather(rows, rows.length));
    }
    return new ResultBatch(schema, sliced, rows.length);
  }

  /** Row {@code row} as an unmodifiable list of typed values (boxed on access). */
  public List<Object> row(int row) {
    return Collections.unmodifiableList(Arrays.asList(values(row)));
  }

  /** The typed values of row {@code row}, in a new array. */
  public Object[] values(int row) {
    Object[] values = new Object[columns.size()];
    for (int c = 0; c < values.length; c++) {
      values[c] = columns.get(c).get(row);
    }
    return values;
  }

  /** All rows, as {@link #row} gives them, in a list view that boxes on access. */
  public List<List<Object>> rows() {
    return new Rows();
  }

  private final class Rows extends AbstractList<List<Object>> implements RandomAccess {
    @Override
    public List<Object> get(int index) {
      return row(index);
    }

    @Override
    public int size() {
      return rowCount;
    }
  }
}
