package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Reports the first cell that occurs twice within one dataset of a cube (Kartothek refuses duplicate
 * cells, {@code _check_duplicates} in {@code kartothek/io_components/cube/write.py}). A cell is the
 * values of the partition and dimension columns of a row.
 *
 * <p>Cells are given either as row keys ({@link #addKey}, compared by content; the array is copied, so
 * callers may reuse it) or as value lists ({@link #add}: equal as the rows would group: {@code -0.0}
 * equals {@code 0.0}, NaN equals NaN, decimals by value, byte arrays by content). Memory grows with the
 * number of distinct cells seen. Not thread-safe.
 */
public final class DuplicateCellDetector {
  private final String cube;
  private final String datasetId;
  private final List<String> columns;
  private final Set<Object> seen = new HashSet<>();

  /**
   * @param columns the cell columns, for messages ({@link CubeSpec#cellColumns()})
   */
  public DuplicateCellDetector(String cube, String datasetId, List<String> columns) {
    this.cube = requireNonNull(cube, "cube is null");
    this.datasetId = requireNonNull(datasetId, "datasetId is null");
    this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
  }

  /**
   * Adds a cell given by its values, in {@code columns} order.
   *
   * @throws KtkValidationException when the cell was added before
   */
  public void add(List<?> cell) {
    requireNonNull(cell, "cell is null");
    if (cell.size() != columns.size()) {
      throw new IllegalArgumentException(cell.size() + " values for the " + columns.size() + " cell columns " + columns);
    }
    List<Object> normalized = new ArrayList<>(cell.size());
    for (Object value : cell) {
      normalized.add(normalize(value));
    }
    if (!seen.add(normalized)) {
      throw duplicate(cell);
    }
  }

  /**
   * Adds a cell given by its row key.
   *
   * @param decode turns the key into the cell's values, called only for the message of a duplicate
   * @throws KtkValidationException when the key was added before
   */
  public void addKey(byte[] key, Function<byte[], List<?>> decode) {
    requireNonNull(key, "key is null");
    requireNonNull(decode, "decode is null");
    if (!seen.add(ByteBuffer.wrap(key.clone()))) {
      throw duplicate(decode.apply(key));
    }
  }

  /** How many distinct cells were added. */
  public int size() {
    return seen.size();
  }

  private KtkValidationException duplicate(List<?> cell) {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        values.append(", ");
      }
      values.append(columns.get(i)).append('=').append(i < cell.size() ? show(cell.get(i)) : "?");
    }
    return new KtkValidationException("Cannot accept dataset " + datasetId + " of cube " + cube + ": duplicate cell ("
        + values + ") (rule: the cell columns " + columns + " identify a row within a dataset)");
  }

  private static Object normalize(Object value) {
    if (value instanceof byte[] bytes) {
      return ByteBuffer.wrap(bytes.clone());
    }
    if (value instanceof Double d && d == 0.0) {
      return 0.0d;
    }
    if (value instanceof Float f && f == 0.0f) {
      return 0.0f;
    }
    if (value instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    return value;
  }

  private static String show(Object value) {
    if (value instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof String s) {
      return "'" + s + "'";
    }
    return String.valueOf(value);
  }
}
