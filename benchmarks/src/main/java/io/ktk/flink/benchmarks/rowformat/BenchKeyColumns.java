package io.ktk.flink.benchmarks.rowformat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/**
 * Benchmark key data, seeded: {@code id} int64 in [0, idCardinality), {@code name} utf8 from a
 * pool of 1000 strings of 10 to 24 bytes ("customer-..."), {@code day} date32 over three years.
 * With 100 ids, 1000 names and 1096 days, 10 million rows have about 100 rows per (id, name) and
 * many ties on the first two columns: a sort compares all three.
 */
final class BenchKeyColumns {
  static final Field ID = field("id", new ArrowType.Int(64, true));
  static final Field NAME = field("name", ArrowType.Utf8.INSTANCE);
  static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));

  final BigIntVector ids;
  final VarCharVector names;
  final DateDayVector days;
  final int rows;

  BenchKeyColumns(BufferAllocator allocator, int rows, long idCardinality, long seed) {
    this.rows = rows;
    SplittableRandom random = new SplittableRandom(seed);
    byte[][] pool = new byte[1000][];
    for (int k = 0; k < pool.length; k++) {
      StringBuilder s = new StringBuilder("customer-").append(k);
      int extra = random.nextInt(10, 25) - s.length();
      for (int c = 0; c < extra; c++) {
        s.append((char) ('a' + random.nextInt(26)));
      }
      pool[k] = s.toString().getBytes(StandardCharsets.UTF_8);
    }
    ids = (BigIntVector) ID.createVector(allocator);
    names = (VarCharVector) NAME.createVector(allocator);
    days = (DateDayVector) DAY.createVector(allocator);
    ids.allocateNew(rows);
    names.allocateNew(rows * 18L, rows);
    days.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      ids.set(i, idCardinality > 0 ? random.nextLong(idCardinality) : random.nextLong());
      names.setSafe(i, pool[random.nextInt(pool.length)]);
      days.set(i, 18_000 + random.nextInt(1096));
    }
    ids.setValueCount(rows);
    names.setValueCount(rows);
    days.setValueCount(rows);
  }

  List<FieldVector> columns(String shape) {
    return switch (shape) {
      case "int64" -> List.of(ids);
      case "string" -> List.of(names);
      case "int64_string_date" -> List.of(ids, names, days);
      default -> throw new IllegalArgumentException("Unknown key shape " + shape);
    };
  }

  static List<Field> fields(String shape) {
    return switch (shape) {
      case "int64" -> List.of(ID);
      case "string" -> List.of(NAME);
      case "int64_string_date" -> List.of(ID, NAME, DAY);
      default -> throw new IllegalArgumentException("Unknown key shape " + shape);
    };
  }

  /** The same values as Flink rows (id BIGINT, name STRING, day DATE), strings as UTF-8 bytes. */
  List<RowData> rowData() {
    List<RowData> out = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      out.add(GenericRowData.of(ids.get(i), StringData.fromBytes(names.get(i)), days.get(i)));
    }
    return out;
  }

  void close() {
    ids.close();
    names.close();
    days.close();
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }
}
