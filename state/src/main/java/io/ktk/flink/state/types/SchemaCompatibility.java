package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decides whether a micro-batch may be appended to a dataset, given the dataset's committed
 * schema, and what the committed schema becomes when it is.
 *
 * <p>Rules (Kartothek's table type system):
 * <ul>
 *   <li>The batch has exactly the committed columns; order does not matter. Missing and extra
 *       columns are named in the error.
 *   <li>Each column is compared after {@link TypeNormalization normalization} of both sides, so
 *       {@code int8} fits {@code int64} and {@code dictionary<values=string, ...>} fits
 *       {@code string} (the index type and ordered flag do not matter).
 *   <li>Nullability is ignored everywhere, and so are the names of list element fields.
 *   <li>A batch column of type {@code null} has no values to judge and fits anything; a
 *       committed {@code null} column accepts any type, and {@link #merge} then records the
 *       batch's normalized type. The same holds for {@code null} list elements and struct
 *       fields (pyarrow infers {@code list<item: null>} for a column of empty lists).
 *   <li>Types of different {@link TypeClass classes} never fit: signed/unsigned integers,
 *       integers/floats, strings/binary, booleans/integers. Within a class, the normalized types
 *       must be equal: zoned timestamps of another unit or zone, timestamps with and without a
 *       zone, decimals of another precision or scale, {@code date32}/{@code date64} and {@code
 *       time32}/{@code time64} do not fit. Timestamps without a zone fit whatever their unit (they
 *       normalize to {@code timestamp[us]}, as plateau treats them as one type); their values
 *       must still fit microseconds exactly ({@link TimestampCoercion}).
 *   <li>{@code string}/{@code large_string}/{@code string_view}, the three binary variants and
 *       {@code list}/{@code large_list} (and list views) fit each other: they differ only in
 *       offset width, which Parquet does not store. {@link #merge} keeps the committed variant.
 *   <li>Lists compare their elements with the same rules. Structs compare field by field: the
 *       same names in the same order; since Kartothek does not normalize inside structs, the
 *       field types must be equal apart from the variants, nullability and nulls above.
 * </ul>
 *
 * <p>Example message: {@code Cannot append to dataset 'sales': column 'qty' has type uint64 in
 * the committed schema but the batch offers int32 (normalized int64); signed and unsigned
 * integers are different type classes}.
 */
public final class SchemaCompatibility {
  private SchemaCompatibility() {}

  /**
   * Throws {@link IncompatibleSchemaException} unless {@code offered} (a batch's physical schema)
   * fits {@code committed} (the dataset's schema) for {@code dataset}.
   */
  public static void check(String dataset, Schema committed, Schema offered) {
    merge(dataset, committed, offered);
  }

  /**
   * Checks as {@link #check} does and returns the committed schema after accepting the batch:
   * the committed columns, in the committed order, normalized, with committed {@code null}
   * columns (or {@code null} list elements and struct fields) replaced by the batch's
   * normalized type. Schema metadata of {@code committed} is kept.
   */
  public static Schema merge(String dataset, Schema committed, Schema offered) {
    requireNonNull(dataset, "dataset is null");
    requireNonNull(committed, "committed is null");
    requireNonNull(offered, "offered is null");
    Map<String, Field> committedColumns = columns(committed, name -> new CorruptDatasetException(
        "Cannot read the committed schema of dataset '" + dataset + "': column '" + name + "' appears twice"));
    Map<String, Field> offeredColumns = columns(offered, name -> new IncompatibleSchemaException(dataset, name,
        "Cannot append to dataset '" + dataset + "': the batch has column '" + name + "' twice"));
    checkSameColumns(dataset, committedColumns, offeredColumns);

    List<Field> merged = new ArrayList<>(committedColumns.size());
    for (Field committedField : committed.getFields()) {
      String column = committedField.getName();
      Field offeredField = offeredColumns.get(column);
      Field normalizedOffered = TypeNormalization.normalize(offeredField);
      try {
        merged.add(mergeField(TypeNormalization.normalize(committedField), normalizedOffered, column, true));
      } catch (Mismatch mismatch) {
        throw incompatible(dataset, column, committedField, offeredField, normalizedOffered, mismatch);
      }
    }
    return new Schema(merged, committed.getCustomMetadata());
  }

  private static Map<String, Field> columns(Schema schema, Function<String, RuntimeException> duplicate) {
    Map<String, Field> columns = new LinkedHashMap<>();
    for (Field field : schema.getFields()) {
      if (columns.put(field.getName(), field) != null) {
        throw duplicate.apply(field.getName());
      }
    }
    return columns;
  }

  private static void checkSameColumns(String dataset, Map<String, Field> committed, Map<String, Field> offered) {
    List<String> missing = committed.keySet().stream().filter(name -> !offered.containsKey(name)).toList();
    List<String> extra = offered.keySet().stream().filter(name -> !committed.containsKey(name)).toList();
    if (missing.isEmpty() && extra.isEmpty()) {
      return;
    }
    List<String> reasons = new ArrayList<>();
    if (!missing.isEmpty()) {
      reasons.add("the batch lacks " + columnList(missing) + " of the committed schema");
    }
    if (!extra.isEmpty()) {
      reasons.add("the batch has " + columnList(extra) + " that the committed schema does not have");
    }
    String column = missing.size() + extra.size() == 1 ? (missing.isEmpty() ? extra : missing).get(0) : null;
    throw new IncompatibleSchemaException(dataset, column,
        "Cannot append to dataset '" + dataset + "': " + String.join(" and ", reasons)
            + "; a batch must have exactly the committed columns (committed: " + columnList(committed.keySet())
            + ")");
  }

  private static String columnList(Collection<String> names) {
    return (names.size() == 1 ? "column " : "columns ")
        + names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", "));
  }

  private static IncompatibleSchemaException incompatible(String dataset, String column, Field committed,
      Field offered, Field normalizedOffered, Mismatch mismatch) {
    String offeredName = ArrowTypeNames.name(offered);
    String normalizedName = ArrowTypeNames.name(normalizedOffered);
    String offeredText = offeredName.equals(normalizedName)
        ? offeredName
        : offeredName + " (normalized " + normalizedName + ")";
    String where = mismatch.path.equals(column) ? "" : "at '" + mismatch.path + "': ";
    return new IncompatibleSchemaException(dataset, column,
        "Cannot append to dataset '" + dataset + "': column '" + column + "' has type "
            + ArrowTypeNames.name(committed) + " in the committed schema but the batch offers " + offeredText
            + "; " + where + mismatch.rule);
  }

  /**
   * Merges two fields of normalized schemas; {@code normalized} is false inside structs, where
   * Kartothek compares types as they are.
   */
  private static Field mergeField(Field committed, Field offered, String path, boolean normalized) {
    ArrowType committedType = committed.getType();
    ArrowType offeredType = offered.getType();
    TypeClass committedClass = TypeClass.of(committedType);
    TypeClass offeredClass = TypeClass.of(offeredType);
    if (offeredClass == TypeClass.NULL) {
      return committed;
    }
    if (committedClass == TypeClass.NULL) {
      // The committed column has only held nulls so far: it stays nullable, whatever the batch says.
      return new Field(committed.getName(),
          new FieldType(true, offeredType, offered.getDictionary(), offered.getMetadata()), offered.getChildren());
    }
    if (committedClass != offeredClass) {
      throw new Mismatch(path, classRule(committedClass, offeredClass));
    }
    return switch (committedClass) {
      case STRING, BINARY -> committed;
      case LIST -> withChildren(committed,
          List.of(mergeField(committed.getChildren().get(0), offered.getChildren().get(0), path + "[]", normalized)));
      case STRUCT -> withChildren(committed, mergeStructFields(committed, offered, path));
      default -> {
        if (!committedType.equals(offeredType)) {
          throw new Mismatch(path, sameClassRule(committedClass, committedType, offeredType, normalized));
        }
        yield withChildren(committed, mergeChildrenByPosition(committed, offered, path));
      }
    };
  }

  private static List<Field> mergeStructFields(Field committed, Field offered, String path) {
    List<String> committedNames = committed.getChildren().stream().map(Field::getName).toList();
    List<String> offeredNames = offered.getChildren().stream().map(Field::getName).toList();
    if (!committedNames.equals(offeredNames)) {
      throw new Mismatch(path, "struct fields must have the same names in the same order (committed "
          + committedNames + ", offered " + offeredNames + ")");
    }
    List<Field> merged = new ArrayList<>(committedNames.size());
    for (int i = 0; i < committedNames.size(); i++) {
      merged.add(mergeField(committed.getChildren().get(i), offered.getChildren().get(i),
          path + "." + committedNames.get(i), false));
    }
    return merged;
  }

  /** Children of other nested types (maps, fixed-size lists, unions): same count, compared in order. */
  private static List<Field> mergeChildrenByPosition(Field committed, Field offered, String path) {
    List<Field> committedChildren = committed.getChildren();
    List<Field> offeredChildren = offered.getChildren();
    if (committedChildren.size() != offeredChildren.size()) {
      throw new Mismatch(path, "nested types with a different number of children are different types");
    }
    List<Field> merged = new ArrayList<>(committedChildren.size());
    for (int i = 0; i < committedChildren.size(); i++) {
      merged.add(mergeField(committedChildren.get(i), offeredChildren.get(i),
          path + "." + committedChildren.get(i).getName(), false));
    }
    return merged;
  }

  private static Field withChildren(Field field, List<Field> children) {
    return children.equals(field.getChildren()) ? field : new Field(field.getName(), field.getFieldType(), children);
  }

  private static String classRule(TypeClass committed, TypeClass offered) {
    Set<TypeClass> pair = EnumSet.of(committed, offered);
    boolean integer = pair.contains(TypeClass.SIGNED_INTEGER) || pair.contains(TypeClass.UNSIGNED_INTEGER);
    if (pair.equals(EnumSet.of(TypeClass.SIGNED_INTEGER, TypeClass.UNSIGNED_INTEGER))) {
      return "signed and unsigned integers are different type classes";
    }
    if (integer && pair.contains(TypeClass.FLOAT)) {
      return "integers and floats are different type classes";
    }
    if (integer && pair.contains(TypeClass.BOOL)) {
      return "booleans and integers are different type classes";
    }
    return committed.description() + " and " + offered.description() + " are different type classes";
  }

  private static String sameClassRule(TypeClass typeClass, ArrowType committed, ArrowType offered, boolean normalized) {
    return switch (typeClass) {
      case TIMESTAMP -> {
        ArrowType.Timestamp a = (ArrowType.Timestamp) committed;
        ArrowType.Timestamp b = (ArrowType.Timestamp) offered;
        if (a.getTimezone() != null && b.getTimezone() != null && a.getUnit() != b.getUnit()
            && a.getTimezone().equals(b.getTimezone())) {
          yield "timestamps with a time zone of different units are different types (plateau and Kartothek"
              + " normalize only timestamps without a zone)";
        }
        if (a.getTimezone() == null || b.getTimezone() == null) {
          yield "timestamps without and with a time zone are different types";
        }
        yield "timestamps with different time zones are different types";
      }
      case DECIMAL -> "decimals of different precision or scale are different types"
          + " (Kartothek does not normalize decimals)";
      case DATE -> "date32 and date64 are different types (Kartothek does not normalize dates)";
      case TIME -> "times of day of different units or widths are different types"
          + " (Kartothek does not normalize time32 and time64)";
      case FIXED_SIZE_BINARY -> "fixed-size binary data of different widths are different types";
      // Normalized integers and floats are all 64 bits wide, so they differ only inside structs.
      case SIGNED_INTEGER, UNSIGNED_INTEGER, FLOAT -> (normalized ? "" : "types inside a struct are not normalized, so ")
          + ArrowTypeNames.name(committed) + " and " + ArrowTypeNames.name(offered) + " are different types";
      default -> ArrowTypeNames.name(committed) + " and " + ArrowTypeNames.name(offered) + " are different types";
    };
  }

  /** A mismatch at {@code path} (the column, {@code col[]} for list elements, {@code col.f} for struct fields). */
  private static final class Mismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String path;
    private final String rule;

    Mismatch(String path, String rule) {
      super(rule, null, false, false);
      this.path = Objects.requireNonNull(path);
      this.rule = rule;
    }
  }
}
