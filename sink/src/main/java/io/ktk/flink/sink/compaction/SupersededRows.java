package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.rowformat.RowKeyMap;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.TypedVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Which rows of a cube dataset's files (or a dataset's with a primary key) a rewrite drops: of the
 * rows of one cell or key (the same values of its columns; partition columns are equal within a
 * partition) in the files of one output, all but the last in the order readers give them (file
 * order, then row order), and, where asked, a last row that deletes its key. Readers keep that
 * last row anyway, so dropping the others changes no answer and spares every reader the work.
 *
 * <p>Cells are told apart by their typed values (the values readers compare), written as bytes
 * into a {@link RowKeyMap}: integers of any width are equal when their values are, timestamps of
 * any unit when their instants are. Floats are compared by their bits, so a rewrite never merges
 * two cells a reader tells apart (at worst it keeps a row a reader drops).
 */
final class SupersededRows {
  private SupersededRows() {}

  /**
   * Per input file, per row group, the rows to keep; null for a row group that keeps every row.
   *
   * @param keys the cell (or primary key) columns the files hold (others are absent from every
   *     file of the dataset)
   * @param dropDeletes for a dataset with a primary key whose rewrite starts at the partition's
   *     oldest file: a key whose last row is a delete ({@value PrimaryKey#DELETED_COLUMN} true) keeps
   *     no row at all, since no older file holds it ({@code docs/cdc.md})
   */
  static boolean[][][] keep(ObjectStore store, String uuid, List<CompactionInput> inputs, List<String> keys,
      boolean dropDeletes) throws IOException {
    RowKeyMap cells = new RowKeyMap(1024);
    KeyBytes key = new KeyBytes();
    List<int[]> cellIds = new ArrayList<>();
    List<int[]> groupRows = new ArrayList<>();
    BitSet deleted = new BitSet();
    int total = 0;
    for (CompactionInput input : inputs) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, input.file().key(uuid))) {
        List<String> present = new ArrayList<>(keys.stream().filter(k -> reader.parquetSchema().containsField(k))
            .toList());
        int deletedAt = -1;
        if (dropDeletes && reader.parquetSchema().containsField(PrimaryKey.DELETED_COLUMN)) {
          deletedAt = present.size();
          present.add(PrimaryKey.DELETED_COLUMN);
        }
        int groups = reader.rowGroups().size();
        int[] counts = new int[groups];
        for (int g = 0; g < groups; g++) {
          int rows = Math.toIntExact(reader.rowGroups().get(g).getRowCount());
          counts[g] = rows;
          int[] ids = new int[rows];
          List<TypedVector> vectors = rows == 0 || present.isEmpty() ? List.of() : reader.readColumns(g, present);
          for (int row = 0; row < rows; row++) {
            key.clear();
            for (String column : keys) {
              int at = present.indexOf(column);
              key.add(at < 0 ? null : vectors.get(at), row, uuid, column);
            }
            ids[row] = cells.getOrAdd(key.bytes, 0, key.length);
            if (deletedAt >= 0 && Boolean.TRUE.equals(vectors.get(deletedAt).get(row))) {
              deleted.set(total + row);
            }
          }
          cellIds.add(ids);
          total = Math.addExact(total, rows);
        }
        groupRows.add(counts);
      }
    }
    int[] last = new int[cells.size()];
    int row = 0;
    for (int[] ids : cellIds) {
      for (int id : ids) {
        last[id] = row++;
      }
    }
    boolean[][][] keep = new boolean[inputs.size()][][];
    int group = 0;
    row = 0;
    for (int f = 0; f < inputs.size(); f++) {
      int[] counts = groupRows.get(f);
      keep[f] = new boolean[counts.length][];
      for (int g = 0; g < counts.length; g++, group++) {
        int[] ids = cellIds.get(group);
        boolean[] kept = new boolean[ids.length];
        boolean all = true;
        for (int i = 0; i < ids.length; i++, row++) {
          kept[i] = last[ids[i]] == row && !deleted.get(row);
          all &= kept[i];
        }
        keep[f][g] = all ? null : kept;
      }
    }
    return keep;
  }

  /** One row's cell as bytes: per column a tag and the value; equal cells give equal bytes. */
  private static final class KeyBytes {
    byte[] bytes = new byte[64];
    int length;

    void clear() {
      length = 0;
    }

    void add(TypedVector vector, int row, String dataset, String column) {
      if (vector == null || vector.isNull(row)) {
        tag(0);
        return;
      }
      if (vector instanceof LongVector longs
          && (longs.type().kind() == LongType.Kind.INTEGER || longs.type().kind() == LongType.Kind.UNSIGNED_64
              || longs.type().kind() == LongType.Kind.DATE)) {
        tag(longs.type().kind() == LongType.Kind.DATE ? 2 : 1); // int32, int64 and uint64 bits alike
        putLong(longs.value(row));
        return;
      }
      Object value = vector.get(row);
      if (value instanceof Long l) {
        tag(10);
        putLong(l);
      } else if (value instanceof Double d) {
        tag(11);
        putLong(Double.doubleToRawLongBits(d));
      } else if (value instanceof String s) {
        tag(12);
        putBytes(s.getBytes(StandardCharsets.UTF_8));
      } else if (value instanceof byte[] b) {
        tag(13);
        putBytes(b);
      } else if (value instanceof Boolean b) {
        tag(b ? 15 : 14);
      } else if (value instanceof LocalDate d) {
        tag(16);
        putLong(d.toEpochDay());
      } else if (value instanceof LocalDateTime t) {
        tag(17);
        putLong(t.toEpochSecond(ZoneOffset.UTC));
        putLong(t.getNano());
      } else if (value instanceof Instant t) {
        tag(18);
        putLong(t.getEpochSecond());
        putLong(t.getNano());
      } else if (value instanceof LocalTime t) {
        tag(19);
        putLong(t.toNanoOfDay());
      } else if (value instanceof BigDecimal d) {
        tag(20);
        putLong(d.scale());
        putBytes(d.unscaledValue().toByteArray());
      } else {
        throw new KtkValidationException("Cannot compact dataset '" + dataset + "': its cell column '" + column
            + "' holds a value of type " + value.getClass().getSimpleName() + ", which cannot identify a cell");
      }
    }

    private void tag(int tag) {
      ensure(1);
      bytes[length++] = (byte) tag;
    }

    private void putLong(long value) {
      ensure(8);
      FlatCopier.LONGS.set(bytes, length, value);
      length += 8;
    }

    private void putBytes(byte[] value) {
      ensure(4 + value.length);
      FlatCopier.INTS.set(bytes, length, value.length);
      System.arraycopy(value, 0, bytes, length + 4, value.length);
      length += 4 + value.length;
    }

    private void ensure(int more) {
      if (length + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + more, bytes.length * 2));
      }
    }
  }
}
