package io.ktk.flink.state.rowformat;

import static java.util.Objects.checkIndex;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The row format over whole Arrow vectors: encodes every row of some columns into one {@link
 * Rows} batch, and decodes a batch back into vectors. Production code encodes one Flink row at a
 * time ({@link RowDataEncoder}); this columnar path is a second, independent writer of the same
 * bytes that the format tests compare against, and the one the row-key benchmarks measure.
 *
 * <p>Encoding runs column by column in two passes, as arrow-rs does: first every column adds its
 * per-row lengths, then the buffer is allocated once and every column writes its bytes at each
 * row's cursor ({@link FixedVectors}, {@link VariableVectors}, {@link StructVectors}, {@link
 * ListVectors}). Decoding is value by value from a cursor, into vectors that grow as needed.
 */
public final class VectorRows {
  private VectorRows() {}

  /**
   * Encodes all rows of the columns (one vector per field of {@code converter}, same types, same
   * value count) into one buffer.
   */
  public static Rows encode(RowConverter converter, List<? extends ValueVector> columns) {
    requireNonNull(columns, "columns is null");
    ColumnCodec[] codecs = converter.codecs();
    List<SortField> fields = converter.fields();
    if (columns.size() != codecs.length) {
      throw new IllegalArgumentException("Cannot encode rows: " + columns.size()
          + " columns given for " + codecs.length + " key fields");
    }
    int rowCount = columns.isEmpty() ? 0 : columns.get(0).getValueCount();
    for (int c = 0; c < codecs.length; c++) {
      ValueVector column = columns.get(c);
      Field expected = fields.get(c).field();
      if (!sameTypes(column.getField(), expected)) {
        throw new IllegalArgumentException("Cannot encode rows: column " + c + " ('"
            + column.getField().getName() + "') has type " + column.getField().getType()
            + " with children " + column.getField().getChildren() + ", but key field '"
            + expected.getName() + "' has " + expected.getType() + " with children "
            + expected.getChildren());
      }
      if (column.getValueCount() != rowCount) {
        throw new IllegalArgumentException("Cannot encode rows: column " + c + " ('"
            + column.getField().getName() + "') has " + column.getValueCount()
            + " values, column 0 has " + rowCount);
      }
    }
    return encodeAll(converter, codecs, columns, rowCount);
  }

  /**
   * Decodes rows encoded by {@code converter} into new vectors (one per field, owned by the
   * caller) allocated from {@code allocator}.
   */
  public static List<FieldVector> decode(RowConverter converter, Rows rows, BufferAllocator allocator) {
    requireNonNull(rows, "rows is null");
    requireNonNull(allocator, "allocator is null");
    if (rows.converter() != converter) {
      throw new IllegalArgumentException(
          "Cannot decode rows: they were encoded by another converter");
    }
    int n = rows.size();
    byte[] data = rows.data();
    int[] cursors = new int[n];
    for (int i = 0; i < n; i++) {
      cursors[i] = rows.start(i);
    }
    List<FieldVector> vectors = new ArrayList<>(converter.codecs().length);
    try {
      for (ColumnCodec codec : converter.codecs()) {
        FieldVector vector = codec.field.createVector(allocator);
        vectors.add(vector);
        vector.setInitialCapacity(n);
        vector.allocateNew();
        for (int i = 0; i < n; i++) {
          cursors[i] = decode(codec, data, cursors[i], vector, i);
        }
        vector.setValueCount(n);
      }
      for (int i = 0; i < n; i++) {
        if (cursors[i] != rows.end(i)) {
          throw new IllegalArgumentException("Cannot decode row " + i + ": decoding ended at byte "
              + (cursors[i] - rows.start(i)) + " of " + rows.length(i));
        }
      }
      return vectors;
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  /** Sorts ids of {@code map} (any subset, in any order) in place by their keys. */
  public static void sort(RowKeyMap map, int[] ids) {
    for (int id : ids) {
      checkIndex(id, map.size());
    }
    new RowSorter(map.keyBytes(), map.keyOffsets()).sort(ids);
  }

  /** One column's part of a batch encoding. */
  interface Encoder {
    /** The encoded length of every row, or -1 if it varies (then {@link #addLengths} is used). */
    int fixedLength();

    /** Adds the encoded length of row {@code i} to {@code lengths[i + 1]}. */
    void addLengths(int[] lengths);

    /** Writes row {@code i} at {@code cursors[i + 1]} and advances that cursor past it. */
    void encode(byte[] data, int[] cursors);
  }

  /** Encodes the first {@code rowCount} values of each vector into one buffer. */
  static Rows encodeAll(
      RowConverter converter, ColumnCodec[] codecs, List<? extends ValueVector> vectors,
      int rowCount) {
    Encoder[] encoders = new Encoder[codecs.length];
    int[] offsets = new int[rowCount + 1];
    long fixed = 0;
    for (int c = 0; c < codecs.length; c++) {
      encoders[c] = prepare(codecs[c], vectors.get(c), rowCount);
      int length = encoders[c].fixedLength();
      if (length >= 0) {
        fixed += length;
      } else {
        encoders[c].addLengths(offsets);
      }
    }
    // turn lengths into start offsets, shifted by one: cursors[i + 1] is where row i starts
    long total = 0;
    for (int i = 0; i < rowCount; i++) {
      long length = fixed + offsets[i + 1];
      offsets[i + 1] = (int) total;
      total += length;
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "Cannot encode rows: the first " + (i + 1) + " of " + rowCount + " rows already take "
                + total + " bytes, more than one buffer holds; encode smaller batches");
      }
    }
    byte[] data = new byte[(int) total];
    for (Encoder encoder : encoders) {
      encoder.encode(data, offsets);
    }
    return new Rows(converter, data, offsets, rowCount);
  }

  /** Prepares the encoding of a vector of the codec's type (checked by the caller). */
  static Encoder prepare(ColumnCodec codec, ValueVector vector, int rowCount) {
    if (codec instanceof FixedCodec fixed) {
      return FixedVectors.prepare(fixed, vector, rowCount);
    } else if (codec instanceof VariableCodec variable) {
      return VariableVectors.prepare(variable, vector, rowCount);
    } else if (codec instanceof StructCodec struct) {
      return StructVectors.prepare(struct, vector, rowCount);
    }
    return ListVectors.prepare((ListCodec) codec, vector, rowCount);
  }

  /**
   * Decodes the value at {@code pos} into {@code vector[index]}, growing the vector as needed.
   *
   * @return the position after the value
   */
  static int decode(ColumnCodec codec, byte[] data, int pos, ValueVector vector, int index) {
    if (codec instanceof FixedCodec fixed) {
      return FixedVectors.decode(fixed, data, pos, vector, index);
    } else if (codec instanceof VariableCodec variable) {
      return VariableVectors.decode(variable, data, pos, vector, index);
    } else if (codec instanceof StructCodec struct) {
      return StructVectors.decode(struct, data, pos, vector, index);
    }
    return ListVectors.decode((ListCodec) codec, data, pos, vector, index);
  }

  /** Sets {@code vector[index]} to null, growing the vector as needed. */
  static void setNull(ColumnCodec codec, ValueVector vector, int index) {
    if (codec instanceof FixedCodec fixed) {
      FixedVectors.setNull(fixed, vector, index);
    } else if (codec instanceof VariableCodec variable) {
      VariableVectors.setNull(variable, vector, index);
    } else if (codec instanceof StructCodec struct) {
      StructVectors.setNull(struct, vector, index);
    } else {
      ListVectors.setNull((ListCodec) codec, vector, index);
    }
  }

  /** Whether two fields have the same types, recursively; names and nullability do not matter. */
  static boolean sameTypes(Field a, Field b) {
    if (!a.getType().equals(b.getType()) || a.getChildren().size() != b.getChildren().size()) {
      return false;
    }
    for (int i = 0; i < a.getChildren().size(); i++) {
      if (!sameTypes(a.getChildren().get(i), b.getChildren().get(i))) {
        return false;
      }
    }
    return true;
  }
}
