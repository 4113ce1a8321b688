package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.InvalidValueException;
import io.ktk.flink.state.types.KeyColumns;
import io.ktk.flink.state.types.TimestampCoercion;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.RowKind;

/**
 * Decides whether a record may be written to the dataset, and to which partition. A record is
 * refused, with a {@link KtkValidationException} naming dataset, column, value and rule, when
 *
 * <ul>
 *   <li>it is not an insert ({@link RowKind#INSERT}) and the sink has no primary key: the datasets
 *       hold rows, not changes, and an update or delete written as a row would corrupt them
 *       silently;
 *   <li>with a primary key ({@code docs/cdc.md}): a key column is null; {@code -U} rows are not
 *       refused but {@linkplain #IGNORED ignored}, and of a delete ({@code -D}) only the key is
 *       checked (its other columns are not written);
 *   <li>a partition, dimension or index column is null (Kartothek's key rule, {@link KeyColumns});
 *   <li>a timestamp, also one inside a list or struct, has a sub-microsecond part or lies
 *       outside the microsecond range ({@link TimestampCoercion});
 *   <li>its partition values cannot form a partition label ({@link PartitionRouter}).
 * </ul>
 *
 * <p>The writer checks every record before buffering any of its values, so a refused record
 * leaves no trace; the dead-letter function checks with the same rules in front of the writer.
 * Not thread-safe.
 */
@Internal
public final class RecordValidator {
  /** What {@link #check} and {@link #route} return for a row that is not written: a {@code -U} of a changelog. */
  public static final int IGNORED = -1;

  private final String dataset;
  private final RowType rowType;
  private final int[] keyPositions;
  private final KeyColumns.Role[] keyRoles;
  private final int[] timestampPositions;
  private final int[] timestampPrecisions;
  private final PartitionRouter router;
  private final int[] nestedPositions;
  private final RowData.FieldGetter[] nestedGetters;
  private final NestedTimestamps[] nestedChecks;
  /** The positions of the primary key's columns; null without a key (inserts only). */
  private final int[] primaryKeyPositions;

  /**
   * @param indexColumns the index columns in effect: those of the config and those the dataset
   *     has already
   */
  public RecordValidator(KartothekSinkConfig config, List<String> indexColumns) {
    this.dataset = config.dataset();
    this.rowType = config.rowType();
    List<Integer> positions = new ArrayList<>();
    List<KeyColumns.Role> roles = new ArrayList<>();
    for (String column : config.partitionColumns()) {
      positions.add(config.position(column));
      roles.add(KeyColumns.Role.PARTITION);
    }
    for (String column : config.dimensionColumns()) {
      positions.add(config.position(column));
      roles.add(KeyColumns.Role.DIMENSION);
    }
    for (String column : indexColumns) {
      if (!config.dimensionColumns().contains(column)) {
        positions.add(config.position(column));
        roles.add(KeyColumns.Role.INDEX);
      }
    }
    this.keyPositions = positions.stream().mapToInt(Integer::intValue).toArray();
    this.keyRoles = roles.toArray(KeyColumns.Role[]::new);
    List<Integer> timestamps = new ArrayList<>();
    for (int pos = 0; pos < rowType.getFieldCount(); pos++) {
      LogicalTypeRoot root = rowType.getTypeAt(pos).getTypeRoot();
      if (root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
          || root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        timestamps.add(pos);
      }
    }
    this.timestampPositions = timestamps.stream().mapToInt(Integer::intValue).toArray();
    this.timestampPrecisions = timestamps.stream()
        .mapToInt(pos -> LogicalTypeChecks.getPrecision(rowType.getTypeAt(pos)))
        .toArray();
    List<Integer> nested = new ArrayList<>();
    List<NestedTimestamps> nestedChecks = new ArrayList<>();
    for (int pos = 0; pos < rowType.getFieldCount(); pos++) {
      NestedTimestamps check = rowType.getTypeAt(pos).getChildren().isEmpty()
          ? null
          : NestedTimestamps.of(dataset, rowType.getFieldNames().get(pos), rowType.getTypeAt(pos));
      if (check != null) {
        nested.add(pos);
        nestedChecks.add(check);
      }
    }
    this.nestedPositions = nested.stream().mapToInt(Integer::intValue).toArray();
    this.nestedChecks = nestedChecks.toArray(NestedTimestamps[]::new);
    this.nestedGetters = nested.stream()
        .map(pos -> RowData.createFieldGetter(rowType.getTypeAt(pos), pos))
        .toArray(RowData.FieldGetter[]::new);
    int[] partitionPositions = config.partitionColumns().stream().mapToInt(config::position).toArray();
    this.router = new PartitionRouter(dataset, rowType, partitionPositions, config.partitionFields());
    this.primaryKeyPositions = config.hasPrimaryKey()
        ? config.primaryKey().stream().mapToInt(config::position).toArray() : null;
  }

  /**
   * Checks a record and returns the id of its partition, or {@link #IGNORED} for a {@code -U} row
   * of a sink with a primary key.
   *
   * @throws KtkValidationException when the record breaks a rule
   */
  public int check(RowData row) {
    RowKind kind = row.getRowKind();
    if (primaryKeyPositions == null && kind != RowKind.INSERT) {
      throw new KtkValidationException("Cannot write to dataset '" + dataset + "': the row is a " + kind.shortString()
          + " (" + kind + ") row, and the sink writes inserts (+I) only; a changelog's updates and deletes would "
          + "be stored as new rows. Declare the dataset's primary key (primaryKey(...) on the builder, PRIMARY KEY "
          + "(...) NOT ENFORCED in SQL) to write a changelog, or write an insert-only stream");
    }
    if (primaryKeyPositions != null) {
      if (kind == RowKind.UPDATE_BEFORE) {
        return IGNORED;
      }
      for (int position : primaryKeyPositions) {
        if (row.isNullAt(position)) {
          throw new InvalidValueException("Cannot write to dataset '" + dataset + "': column '"
              + rowType.getFieldNames().get(position) + "' is a primary key column and may not be null (in a "
              + kind.shortString() + " (" + kind + ") row): a change without its key cannot be applied");
        }
      }
      if (kind == RowKind.DELETE) {
        return router.route(row); // its other columns are not written
      }
    }
    for (int k = 0; k < keyPositions.length; k++) {
      if (row.isNullAt(keyPositions[k])) {
        KeyColumns.checkNotNull(dataset, rowType.getFieldNames().get(keyPositions[k]), keyRoles[k], null);
      }
    }
    for (int t = 0; t < timestampPositions.length; t++) {
      int pos = timestampPositions[t];
      if (!row.isNullAt(pos)) {
        var timestamp = row.getTimestamp(pos, timestampPrecisions[t]);
        if (timestamp.getNanoOfMillisecond() % 1000 != 0 || !fitsMicros(timestamp.getMillisecond())) {
          TimestampCoercion.toMicros(dataset, rowType.getFieldNames().get(pos), timestamp);
        }
      }
    }
    for (int n = 0; n < nestedPositions.length; n++) {
      nestedChecks[n].check(row, nestedPositions[n], nestedGetters[n]);
    }
    return router.route(row);
  }

  /**
   * The id of the partition of a record that passed {@link #check} already (in the validation step
   * in front of the writer), without checking the rules again; {@link #IGNORED} for a {@code -U}
   * row of a sink with a primary key.
   */
  public int route(RowData row) {
    if (primaryKeyPositions != null && row.getRowKind() == RowKind.UPDATE_BEFORE) {
      return IGNORED;
    }
    return router.route(row);
  }

  /** The record as text, for the dead-letter output and messages. */
  public String render(RowData row) {
    return RowFieldValues.render(rowType, row);
  }

  PartitionRouter router() {
    return router;
  }

  private static boolean fitsMicros(long millis) {
    return millis < Long.MAX_VALUE / 1000 && millis > Long.MIN_VALUE / 1000;
  }
}
