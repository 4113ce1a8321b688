package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.VALID;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.StructVector;

/** {@link StructCodec} over Arrow struct vectors: the children are encoded as rows of their own. */
final class StructVectors {
  private StructVectors() {}

  static VectorRows.Encoder prepare(StructCodec codec, ValueVector vector, int rowCount) {
    StructVector struct = (StructVector) vector;
    List<ValueVector> childVectors = new ArrayList<>(codec.children.length);
    for (int c = 0; c < codec.children.length; c++) {
      childVectors.add(struct.getChildByOrdinal(c));
    }
    // The children of null structs are encoded too and then skipped: simpler than a selection.
    Rows childRows = VectorRows.encodeAll(null, codec.children, childVectors, rowCount);
    boolean mayBeNull = struct.getNullCount() > 0;
    return new VectorRows.Encoder() {
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
            data[pos] = codec.nullByte;
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

  static int decode(StructCodec codec, byte[] data, int pos, ValueVector vector, int index) {
    if (data[pos] != VALID) {
      if (data[pos] != codec.nullByte) {
        throw new IllegalArgumentException(
            "Cannot decode row: byte " + (data[pos] & 0xFF) + " at " + pos + " is not a marker"
                + " of struct column '" + codec.field.getName() + "'");
      }
      setNull(codec, vector, index);
      return pos + 1;
    }
    StructVector struct = (StructVector) vector;
    struct.setIndexDefined(index);
    int p = pos + 1;
    for (int c = 0; c < codec.children.length; c++) {
      p = VectorRows.decode(codec.children[c], data, p, struct.getChildByOrdinal(c), index);
    }
    return p;
  }

  static void setNull(StructCodec codec, ValueVector vector, int index) {
    StructVector struct = (StructVector) vector;
    struct.setNull(index);
    // children need a slot at every index of the struct
    for (int c = 0; c < codec.children.length; c++) {
      VectorRows.setNull(codec.children[c], struct.getChildByOrdinal(c), index);
    }
  }
}
