package io.ktk.flink.state.rowformat;

import java.util.List;
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
}
