package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The type classes of the Kartothek type system: sets of Arrow types that hold the same kind of
 * value. Types of different classes are never compatible (an {@code int64} column does not accept
 * {@code uint64}, {@code double}, {@code bool} or {@code string}); types within one class are
 * compatible when they are equal after {@link TypeNormalization normalization}.
 *
 * <p>Beyond Kartothek's documentation, three classes group storage variants of one logical type: {@code string},
 * {@code large_string} and {@code string_view} are all {@link #STRING}; {@code binary},
 * {@code large_binary} and {@code binary_view} are all {@link #BINARY}; {@code list},
 * {@code large_list}, {@code list_view} and {@code large_list_view} are all {@link #LIST}. They
 * differ only in the width of their offsets, which Parquet does not store, and plateau reads
 * strings back as {@code large_string} while pyarrow writes {@code string}.
 */
public enum TypeClass {
  NULL("nulls"),
  BOOL("booleans"),
  SIGNED_INTEGER("signed integers"),
  UNSIGNED_INTEGER("unsigned integers"),
  FLOAT("floats"),
  DECIMAL("decimals"),
  STRING("strings"),
  BINARY("binary data"),
  FIXED_SIZE_BINARY("fixed-size binary data"),
  DATE("dates"),
  TIME("times of day"),
  TIMESTAMP("timestamps"),
  DURATION("durations"),
  INTERVAL("intervals"),
  LIST("lists"),
  FIXED_SIZE_LIST("fixed-size lists"),
  STRUCT("structs"),
  MAP("maps"),
  UNION("unions"),
  RUN_END_ENCODED("run-end encoded data"),
  EXTENSION("extension types");

  private final String description;

  TypeClass(String description) {
    this.description = description;
  }

  /** Plural noun for messages, e.g. "unsigned integers". */
  public String description() {
    return description;
  }

  /** The class of {@code type}; for a dictionary-encoded field pass the value type. */
  public static TypeClass of(ArrowType type) {
    requireNonNull(type, "type is null");
    if (type instanceof ArrowType.ExtensionType) {
      return EXTENSION;
    }
    return switch (type.getTypeID()) {
      case Null, NONE -> NULL;
      case Bool -> BOOL;
      case Int -> ((ArrowType.Int) type).getIsSigned() ? SIGNED_INTEGER : UNSIGNED_INTEGER;
      case FloatingPoint -> FLOAT;
      case Decimal -> DECIMAL;
      case Utf8, LargeUtf8, Utf8View -> STRING;
      case Binary, LargeBinary, BinaryView -> BINARY;
      case FixedSizeBinary -> FIXED_SIZE_BINARY;
      case Date -> DATE;
      case Time -> TIME;
      case Timestamp -> TIMESTAMP;
      case Duration -> DURATION;
      case Interval -> INTERVAL;
      case List, LargeList, ListView, LargeListView -> LIST;
      case FixedSizeList -> FIXED_SIZE_LIST;
      case Struct -> STRUCT;
      case Map -> MAP;
      case Union -> UNION;
      case RunEndEncoded -> RUN_END_ENCODED;
    };
  }
}
