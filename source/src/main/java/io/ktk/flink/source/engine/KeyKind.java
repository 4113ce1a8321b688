package io.ktk.flink.source.engine;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How the values of a key column become order-preserving longs ({@link CellKeys}): integers,
 * dates, times, floats and booleans are one long each, timestamps two (epoch seconds and
 * nanoseconds), and strings, binaries and decimals their rank among the partition's values of the
 * column ({@link KeyRanks}). The same column type always gives the same kind, so keys of different
 * datasets compare.
 */
enum KeyKind {
  LONG, UNSIGNED, DOUBLE, BOOL, DATE, TIME, TIMESTAMP, RANKED;

  /** The kind of a key column; only primitive types identify cells. */
  static KeyKind of(Field column) {
    ArrowType type = column.getType();
    return switch (type.getTypeID()) {
      case Int -> ((ArrowType.Int) type).getIsSigned() ? LONG : UNSIGNED;
      case FloatingPoint -> DOUBLE;
      case Bool -> BOOL;
      case Date -> DATE;
      case Time -> TIME;
      case Timestamp -> TIMESTAMP;
      case Utf8, LargeUtf8, Binary, LargeBinary, FixedSizeBinary, Decimal -> RANKED;
      default -> throw new KtkValidationException("Cannot use column '" + column.getName() + "' of type "
          + ArrowTypeNames.name(column) + " as a cell key: only primitive types identify cells");
    };
  }
}
