package io.ktk.flink.source.engine;

import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;

/**
 * One read column's values over all row groups read: vectors of the same kind are appended as
 * they are; when a file stores the column differently (say timestamps in another unit), the
 * column continues as typed values; rows of a file without the column are null.
 */
final class AppendedColumn {
  private TypedVector vector;
  private int leadingNulls;
  private int expected;

  void expect(int rows) {
    expected = rows;
  }

  void append(TypedVector chunk, int count) {
    if (chunk == null) {
      if (vector == null) {
        leadingNulls += count;
      } else {
        for (int i = 0; i < count; i++) {
          vector.appendNull();
        }
      }
      return;
    }
    if (vector == null && leadingNulls == 0 && count >= expected) {
      vector = chunk;
      return;
    }
    if (vector == null) {
      vector = chunk.emptyCopy(Math.max(leadingNulls + count, expected));
      for (int i = 0; i < leadingNulls; i++) {
        vector.appendNull();
      }
    } else if (!vector.canAppend(chunk)) {
      vector = ObjectVector.copyOf(vector);
    }
    vector.appendFrom(chunk);
  }

  TypedVector vector() {
    if (vector == null) {
      vector = new ObjectVector(leadingNulls);
      for (int i = 0; i < leadingNulls; i++) {
        vector.appendNull();
      }
      leadingNulls = 0;
    }
    return vector;
  }
}
