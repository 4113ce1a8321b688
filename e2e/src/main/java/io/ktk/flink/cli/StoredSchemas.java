package io.ktk.flink.cli;

import io.ktk.flink.state.metadata.PandasMetadata;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How {@link DatasetValidator} reads schemas that plateau stored: what in them differs from the
 * committed schema without being wrong, because plateau (through pyarrow and pandas) writes it so
 * and reads it back as the committed type.
 */
final class StoredSchemas {
  private static final Set<TimeUnit> NAIVE_UNITS_PLATEAU_READS = EnumSet.of(TimeUnit.MICROSECOND, TimeUnit.NANOSECOND);

  private StoredSchemas() {}

  /**
   * Whether a {@code _common_metadata} column of type {@code stored} holds the committed type
   * {@code expected} as plateau reads it: the same type, where plateau reads a naive {@code
   * timestamp[us]} or {@code timestamp[ns]} alike (as {@code timestamp[ns]}) and list elements
   * may have any name ({@code element} in plateau's files, {@code item} in ours).
   */
  static boolean sameAsPlateauReadsIt(Field stored, Field expected) {
    ArrowType a = stored.getType();
    ArrowType b = expected.getType();
    boolean sameType = a.equals(b) || a instanceof ArrowType.Timestamp x && b instanceof ArrowType.Timestamp y
        && x.getTimezone() == null && y.getTimezone() == null
        && NAIVE_UNITS_PLATEAU_READS.contains(x.getUnit()) && NAIVE_UNITS_PLATEAU_READS.contains(y.getUnit());
    if (!sameType || stored.getChildren().size() != expected.getChildren().size()) {
      return false;
    }
    boolean list = a instanceof ArrowType.List || a instanceof ArrowType.LargeList;
    for (int i = 0; i < stored.getChildren().size(); i++) {
      Field storedChild = stored.getChildren().get(i);
      Field expectedChild = expected.getChildren().get(i);
      if (!list && !storedChild.getName().equals(expectedChild.getName())
          || !sameAsPlateauReadsIt(storedChild, expectedChild)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The physical schema of a data file as a column of the committed schema sees it, for files
   * that plateau wrote: the pandas index columns that pyarrow stored with a frame whose index was
   * not a plain range ({@code __index_level_0__}) are not data columns; and a decimal column may
   * have a smaller precision than committed with the same scale, because pyarrow infers each
   * file's precision from its values (every value fits the committed type).
   */
  static Schema asDataColumns(Schema physical, Schema committed, Map<String, String> footer) {
    String pandas = footer.get(PandasMetadata.KEY);
    Set<String> indexColumns = pandas == null ? Set.of() : Set.copyOf(PandasMetadata.indexColumns(pandas));
    List<Field> fields = new ArrayList<>();
    for (Field field : physical.getFields()) {
      if (indexColumns.contains(field.getName()) && committed.getFields().stream()
          .noneMatch(c -> c.getName().equals(field.getName()))) {
        continue;
      }
      Field committedField = committed.getFields().stream().filter(c -> c.getName().equals(field.getName()))
          .findFirst().orElse(null);
      if (committedField != null && field.getType() instanceof ArrowType.Decimal narrow
          && committedField.getType() instanceof ArrowType.Decimal wide
          && narrow.getBitWidth() == wide.getBitWidth() && narrow.getScale() == wide.getScale()
          && narrow.getPrecision() <= wide.getPrecision()) {
        fields.add(new Field(field.getName(), new FieldType(field.isNullable(), wide, field.getDictionary(),
            field.getMetadata()), field.getChildren()));
      } else {
        fields.add(field);
      }
    }
    return new Schema(fields);
  }
}
