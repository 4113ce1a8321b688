package io.ktk.flink.state.rowformat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Test-side conversion between Java values and Arrow vectors through Arrow's own typed API (not
 * the row format's buffer access). Values: see {@link RandomColumns}.
 */
final class ArrowValues {
  private ArrowValues() {}

  static FieldVector vector(BufferAllocator allocator, Field field, List<?> values) {
    FieldVector vector = field.createVector(allocator);
    try {
      vector.allocateNew();
      for (int i = 0; i < values.size(); i++) {
        write(vector, i, values.get(i));
      }
      vector.setValueCount(values.size());
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  static List<Object> read(FieldVector vector) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < vector.getValueCount(); i++) {
      values.add(read(vector, i));
    }
    return values;
  }

  static void write(ValueVector v, int i, Object value) {
    if (value == null) {
      setNull(v, i);
      return;
    }
    if (v instanceof StructVector s) {
      s.setIndexDefined(i);
      List<?> fields = (List<?>) value;
      for (int c = 0; c < fields.size(); c++) {
        write(s.getChildByOrdinal(c), i, fields.get(c));
      }
    } else if (v instanceof ListVector l) {
      List<?> elements = (List<?>) value;
      int start = l.startNewValue(i);
      for (int k = 0; k < elements.size(); k++) {
        write(l.getDataVector(), start + k, elements.get(k));
      }
      l.endValue(i, elements.size());
    } else if (v instanceof BitVector b) {
      b.setSafe(i, (Boolean) value ? 1 : 0);
    } else if (v instanceof TinyIntVector t) {
      t.setSafe(i, (byte) (long) (Long) value);
    } else if (v instanceof SmallIntVector t) {
      t.setSafe(i, (short) (long) (Long) value);
    } else if (v instanceof IntVector t) {
      t.setSafe(i, (int) (long) (Long) value);
    } else if (v instanceof BigIntVector t) {
      t.setSafe(i, (Long) value);
    } else if (v instanceof UInt1Vector t) {
      t.setSafe(i, (byte) (long) (Long) value);
    } else if (v instanceof UInt2Vector t) {
      t.setSafe(i, (char) (long) (Long) value);
    } else if (v instanceof UInt4Vector t) {
      t.setSafe(i, (int) (long) (Long) value);
    } else if (v instanceof UInt8Vector t) {
      t.setSafe(i, (Long) value);
    } else if (v instanceof Float4Vector t) {
      t.setSafe(i, (Float) value);
    } else if (v instanceof Float8Vector t) {
      t.setSafe(i, (Double) value);
    } else if (v instanceof DateDayVector t) {
      t.setSafe(i, (int) (long) (Long) value);
    } else if (v instanceof DateMilliVector t) {
      t.setSafe(i, (Long) value);
    } else if (v instanceof TimeSecVector t) {
      t.setSafe(i, (int) (long) (Long) value);
    } else if (v instanceof TimeMilliVector t) {
      t.setSafe(i, (int) (long) (Long) value);
    } else if (v instanceof TimeMicroVector t) {
      t.setSafe(i, (Long) value);
    } else if (v instanceof TimeNanoVector t) {
      t.setSafe(i, (Long) value);
    } else if (v instanceof TimeStampVector t) {
      t.setSafe(i, (Long) value);
    } else if (v instanceof DecimalVector t) {
      t.setSafe(i, (BigDecimal) value);
    } else if (v instanceof FixedSizeBinaryVector t) {
      t.setSafe(i, (byte[]) value);
    } else if (v instanceof BaseVariableWidthVector t) {
      t.setSafe(i, bytes(value));
    } else if (v instanceof BaseLargeVariableWidthVector t) {
      t.setSafe(i, bytes(value));
    } else {
      throw new IllegalArgumentException("No writer for " + v.getClass());
    }
  }

  private static byte[] bytes(Object value) {
    return value instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) value;
  }

  private static void setNull(ValueVector v, int i) {
    if (v instanceof StructVector s) {
      s.setNull(i);
      for (int c = 0; c < s.size(); c++) {
        setNull(s.getChildByOrdinal(c), i);
      }
    } else if (v instanceof ListVector l) {
      l.setNull(i);
    } else if (v instanceof BaseFixedWidthVector f) {
      f.setNull(i);
    } else if (v instanceof BaseVariableWidthVector f) {
      f.setNull(i);
    } else if (v instanceof BaseLargeVariableWidthVector f) {
      f.setNull(i);
    } else {
      throw new IllegalArgumentException("No null writer for " + v.getClass());
    }
  }

  static Object read(ValueVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (v instanceof StructVector s) {
      List<Object> fields = new ArrayList<>();
      for (int c = 0; c < s.size(); c++) {
        fields.add(read(s.getChildByOrdinal(c), i));
      }
      return fields;
    } else if (v instanceof ListVector l) {
      List<Object> elements = new ArrayList<>();
      for (int k = l.getElementStartIndex(i); k < l.getElementEndIndex(i); k++) {
        elements.add(read(l.getDataVector(), k));
      }
      return elements;
    } else if (v instanceof BitVector b) {
      return b.get(i) == 1;
    } else if (v instanceof TinyIntVector t) {
      return (long) t.get(i);
    } else if (v instanceof SmallIntVector t) {
      return (long) t.get(i);
    } else if (v instanceof IntVector t) {
      return (long) t.get(i);
    } else if (v instanceof BigIntVector t) {
      return t.get(i);
    } else if (v instanceof UInt1Vector t) {
      return t.get(i) & 0xFFL;
    } else if (v instanceof UInt2Vector t) {
      return (long) t.get(i);
    } else if (v instanceof UInt4Vector t) {
      return Integer.toUnsignedLong(t.get(i));
    } else if (v instanceof UInt8Vector t) {
      return t.get(i);
    } else if (v instanceof Float4Vector t) {
      return t.get(i);
    } else if (v instanceof Float8Vector t) {
      return t.get(i);
    } else if (v instanceof DateDayVector t) {
      return (long) t.get(i);
    } else if (v instanceof DateMilliVector t) {
      return t.get(i);
    } else if (v instanceof TimeSecVector t) {
      return (long) t.get(i);
    } else if (v instanceof TimeMilliVector t) {
      return (long) t.get(i);
    } else if (v instanceof TimeMicroVector t) {
      return t.get(i);
    } else if (v instanceof TimeNanoVector t) {
      return t.get(i);
    } else if (v instanceof TimeStampVector t) {
      return t.get(i);
    } else if (v instanceof DecimalVector t) {
      return t.getObject(i);
    } else if (v instanceof FixedSizeBinaryVector t) {
      return t.get(i);
    } else if (v instanceof VarCharVector t) {
      return new String(t.get(i), StandardCharsets.UTF_8);
    } else if (v instanceof LargeVarCharVector t) {
      return new String(t.get(i), StandardCharsets.UTF_8);
    } else if (v instanceof VarBinaryVector t) {
      return t.get(i);
    } else if (v instanceof LargeVarBinaryVector t) {
      return t.get(i);
    }
    throw new IllegalArgumentException("No reader for " + v.getClass());
  }
}
