package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.VALID;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Struct: a null is the null byte alone; a present struct is {@code 0x01} followed by the
 * encodings of its children, which inherit the struct's sort options. The schema is thereby
 * flattened depth first, and structs compare child by child.
 */
final class StructCodec extends ColumnCodec {
  final ColumnCodec[] children;

  StructCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    super(field, descending, nullsFirst, ordered);
    List<Field> fields = field.getChildren();
    this.children = new ColumnCodec[fields.size()];
    for (int i = 0; i < children.length; i++) {
      children[i] = create(fields.get(i), descending, nullsFirst, ordered);
    }
  }

  @Override
  Encoder prepare(ValueVector vector, int rowCount) {
    StructVector struct = (StructVector) vector;
    List<ValueVector> childVectors = new ArrayList<>(children.length);
    for (int c = 0; c < children.length; c++) {
      childVectors.add(struct.getChildByOrdinal(c));
    }
    // The children of null structs are encoded too and then skipped: simpler than a selection.
    Rows childRows = encodeAll(null, children, childVectors, rowCount);
    boolean mayBeNull = struct.getNullCount() > 0;
    return new Encoder() {
      @Override
      public int fixedLength() {
        return -1;
      }

      @Override
      public void addLengths(int[] lengths) {
        for (int i = 0; i < rowCount; i++) {
          lengths[i + 1] += mayBeNull && struct.isNull(i) ? 1 : 1 + childRows.length(i);
        }
      }

      @Override
      public void encode(byte[] data, int[] cursors) {
        byte[] childData = childRows.data();
        for (int i = 0; i < rowCount; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && struct.isNull(i)) {
            data[pos] = nullByte;
            cursors[i + 1] = pos + 1;
          } else {
            data[pos] = VALID;
            int length = childRows.length(i);
            System.arraycopy(childData, childRows.start(i), data, pos + 1, length);
            cursors[i + 1] = pos + 1 + length;
          }
        }
      }
    };
  }

  @Override
  int decode(byte[] data, int pos, ValueVector vector, int index) {
    if (data[pos] != VALID) {
      if (data[pos] != nullByte) {
        throw new IllegalArgumentException(
            "Cannot decode row: byte " + (data[pos] & 0xFF) + " at " + pos + " is not a marker"
                + " of struct column '" + field.getName() + "'");
      }
      setNull(vector, index);
      return pos + 1;
    }
    StructVector struct = (StructVector) vector;
    struct.setIndexDefined(index);
    int p = pos + 1;
    for (int c = 0; c < children.length; c++) {
      p = children[c].decode(data, p, struct.getChildByOrdinal(c), index);
    }
    return p;
  }

  @Override
  void setNull(ValueVector vector, int index) {
    StructVector struct = (StructVector) vector;
    struct.setNull(index);
    // children need a slot at every index of the struct
    for (int c = 0; c < children.length; c++) {
      children[c].setNull(struct.getChildByOrdinal(c), index);
    }
  }
}
