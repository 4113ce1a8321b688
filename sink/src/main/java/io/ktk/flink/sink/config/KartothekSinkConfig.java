package io.ktk.flink.sink.config;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.PartitionValues;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Everything a sink needs at run time, checked when it is built: it travels with the job graph
 * to the writers and the committer. {@link io.ktk.flink.sink.KartothekSinkBuilder} makes it.
 *
 * @param store opens the object store
 * @param dataset the dataset uuid
 * @param rowType the declared type of the records
 * @param partitionColumns the partition columns, in label order
 * @param indexColumns the secondary index columns asked for (the dataset's own are added at run
 *     time)
 * @param rowGroupSizeBytes a row group is cut at this much buffered encoded data
 * @param memoryBudgetBytes the memory of all partition buffers of one writer subtask
 * @param dimensionColumns for a dataset of a cube, the cube's dimension columns it has: like
 *     partition columns they may not be null (empty for a plain dataset)
 * @param verifyFilesOlderThan the committer checks that the files of a batch older than this
 *     still exist before committing it ({@link KartothekSinkOptions#COMMIT_VERIFY_FILES_OLDER_THAN})
 * @param publishMinInterval the least time between two publications of the plateau view ({@link
 *     KartothekSinkOptions#PUBLISH_MIN_INTERVAL})
 * @param writerIdPrefix put before the writer ids the sink generates ({@link
 *     KartothekSinkOptions#WRITER_ID_PREFIX}), empty for none
 * @param primaryKey the dataset's primary key ({@code docs/cdc.md}), empty for none: with one, the
 *     sink takes a changelog ({@code +I}, {@code +U} and {@code -D} rows upsert and delete by it)
 */
@Internal
public record KartothekSinkConfig(
    ObjectStoreFactory store,
    String dataset,
    RowType rowType,
    List<String> partitionColumns,
    List<String> indexColumns,
    Compression compression,
    long rowGroupSizeBytes,
    long memoryBudgetBytes,
    ValidationPolicy validationPolicy,
    WriteMode writeMode,
    List<String> dimensionColumns,
    Duration verifyFilesOlderThan,
    Duration publishMinInterval,
    String writerIdPrefix,
    List<String> primaryKey)
    implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Pattern WRITER_ID_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,64}");

  public KartothekSinkConfig {
    requireNonNull(store, "store is null");
    requireNonNull(dataset, "dataset is null");
    requireNonNull(rowType, "rowType is null");
    partitionColumns = List.copyOf(partitionColumns);
    indexColumns = List.copyOf(indexColumns);
    requireNonNull(compression, "compression is null");
    requireNonNull(validationPolicy, "validationPolicy is null");
    requireNonNull(writeMode, "writeMode is null");
    dimensionColumns = List.copyOf(dimensionColumns);
    requireNonNull(verifyFilesOlderThan, "verifyFilesOlderThan is null");
    if (verifyFilesOlderThan.isNegative()) {
      throw invalid(dataset, "the age above which files are verified before a commit must not be negative, not "
          + verifyFilesOlderThan);
    }
    requireNonNull(publishMinInterval, "publishMinInterval is null");
    if (publishMinInterval.isNegative()) {
      throw invalid(dataset, "the least time between two publications must not be negative, not "
          + publishMinInterval);
    }
    requireNonNull(writerIdPrefix, "writerIdPrefix is null");
    if (!WRITER_ID_PREFIX.matcher(writerIdPrefix).matches()) {
      throw invalid(dataset, "the writer id prefix may hold up to 64 of the characters A-Z a-z 0-9 . _ -, not '"
          + writerIdPrefix + "'");
    }
    primaryKey = List.copyOf(primaryKey);
    if (!DatasetKeys.isValidUuid(dataset)) {
      throw invalid(dataset, "the dataset uuid may hold only the characters a-z A-Z 0-9 + - _");
    }
    if (rowGroupSizeBytes <= 0) {
      throw invalid(dataset, "the row group size must be positive, not " + rowGroupSizeBytes + " bytes");
    }
    if (memoryBudgetBytes <= 0) {
      throw invalid(dataset, "the memory budget must be positive, not " + memoryBudgetBytes + " bytes");
    }
    checkColumns(dataset, rowType, partitionColumns, indexColumns);
    for (String column : dimensionColumns) {
      if (partitionColumns.contains(column)) {
        throw invalid(dataset, "column '" + column + "' cannot be both a partition and a dimension column");
      }
      checkKeyColumn(dataset, rowType, column, "dimension", new HashSet<>());
    }
    checkPrimaryKey(dataset, rowType, partitionColumns, primaryKey);
    if (!primaryKey.isEmpty() && writeMode != WriteMode.APPEND) {
      throw invalid(dataset, "a sink with a primary key writes changes by key and needs the write mode APPEND, not "
          + writeMode + " (replacing a partition by a checkpoint's changes would drop its other keys)");
    }
  }

  /** The config without a primary key. */
  public KartothekSinkConfig(ObjectStoreFactory store, String dataset, RowType rowType, List<String> partitionColumns,
      List<String> indexColumns, Compression compression, long rowGroupSizeBytes, long memoryBudgetBytes,
      ValidationPolicy validationPolicy, WriteMode writeMode, List<String> dimensionColumns,
      Duration verifyFilesOlderThan, Duration publishMinInterval, String writerIdPrefix) {
    this(store, dataset, rowType, partitionColumns, indexColumns, compression, rowGroupSizeBytes, memoryBudgetBytes,
        validationPolicy, writeMode, dimensionColumns, verifyFilesOlderThan, publishMinInterval, writerIdPrefix,
        List.of());
  }

  /** The config with the default {@code commit.verify-files-older-than}. */
  public KartothekSinkConfig(ObjectStoreFactory store, String dataset, RowType rowType, List<String> partitionColumns,
      List<String> indexColumns, Compression compression, long rowGroupSizeBytes, long memoryBudgetBytes,
      ValidationPolicy validationPolicy, WriteMode writeMode, List<String> dimensionColumns) {
    this(store, dataset, rowType, partitionColumns, indexColumns, compression, rowGroupSizeBytes, memoryBudgetBytes,
        validationPolicy, writeMode, dimensionColumns,
        KartothekSinkOptions.COMMIT_VERIFY_FILES_OLDER_THAN.defaultValue(),
        KartothekSinkOptions.PUBLISH_MIN_INTERVAL.defaultValue(), KartothekSinkOptions.WRITER_ID_PREFIX.defaultValue());
  }

  /** The config of a plain dataset, without dimension columns. */
  public KartothekSinkConfig(ObjectStoreFactory store, String dataset, RowType rowType, List<String> partitionColumns,
      List<String> indexColumns, Compression compression, long rowGroupSizeBytes, long memoryBudgetBytes,
      ValidationPolicy validationPolicy, WriteMode writeMode) {
    this(store, dataset, rowType, partitionColumns, indexColumns, compression, rowGroupSizeBytes, memoryBudgetBytes,
        validationPolicy, writeMode, List.of());
  }

  private static void checkColumns(String dataset, RowType rowType, List<String> partitionColumns,
      List<String> indexColumns) {
    List<String> names = rowType.getFieldNames();
    if (new HashSet<>(names).size() != names.size()) {
      throw invalid(dataset, "the row type " + rowType.asSummaryString() + " names a column twice");
    }
    for (RowType.RowField field : rowType.getFields()) {
      try {
        ArrowParquetSchemas.toParquet(new Schema(List.of(FlinkArrowTypes.toField(field.getName(), field.getType()))));
      } catch (KtkValidationException e) {
        throw new KtkValidationException("Cannot build the sink of dataset '" + dataset + "': " + e.getMessage(), e);
      }
    }
    Set<String> seen = new HashSet<>();
    for (String column : partitionColumns) {
      checkKeyColumn(dataset, rowType, column, "partition", seen);
      LogicalType type = rowType.getTypeAt(rowType.getFieldIndex(column));
      PartitionValues.checkPartitionColumn(FlinkArrowTypes.toField(column, type));
    }
    for (String column : indexColumns) {
      if (partitionColumns.contains(column)) {
        throw invalid(dataset, "column '" + column + "' is a partition column; partitions index themselves, so it "
            + "cannot also be an index column");
      }
      checkKeyColumn(dataset, rowType, column, "index", seen);
    }
    if (partitionColumns.size() == names.size()) {
      throw invalid(dataset, "every column is a partition column; the data files would have no columns");
    }
  }

  private static void checkPrimaryKey(String dataset, RowType rowType, List<String> partitionColumns,
      List<String> primaryKey) {
    if (rowType.getFieldNames().contains(PrimaryKey.DELETED_COLUMN)) {
      throw invalid(dataset, "column '" + PrimaryKey.DELETED_COLUMN + "' is reserved: it marks the deletes in the "
          + "change files of a dataset with a primary key");
    }
    if (primaryKey.isEmpty()) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (String column : primaryKey) {
      checkKeyColumn(dataset, rowType, column, "primary key", seen);
    }
    PrimaryKey.check(dataset, primaryKey, partitionColumns, FlinkArrowTypes.toSchema(rowType));
  }

  private static void checkKeyColumn(String dataset, RowType rowType, String column, String role, Set<String> seen) {
    if (!rowType.getFieldNames().contains(column)) {
      throw invalid(dataset, role + " column '" + column + "' is not a column of " + rowType.getFieldNames());
    }
    if (!seen.add(column)) {
      throw invalid(dataset, "column '" + column + "' is named twice as a key column");
    }
    LogicalType type = rowType.getTypeAt(rowType.getFieldIndex(column));
    if (type.getTypeRoot() == LogicalTypeRoot.NULL) {
      throw invalid(dataset, role + " column '" + column + "' has type NULL and could never hold a value");
    }
    if (!type.getChildren().isEmpty()) {
      throw invalid(dataset, role + " column '" + column + "' has the nested type " + type.asSummaryString()
          + "; key columns hold single values");
    }
  }

  private static KtkValidationException invalid(String dataset, String reason) {
    return new KtkValidationException("Cannot build the sink of dataset '" + dataset + "': " + reason);
  }

  /** The position of a column in the row type. */
  public int position(String column) {
    int position = rowType.getFieldIndex(column);
    if (position < 0) {
      throw new IllegalArgumentException("Column '" + column + "' is not in " + rowType.getFieldNames());
    }
    return position;
  }

  /**
   * The declared Arrow schema of the records, partition columns included, every field nullable:
   * what the commits offer as the dataset's schema (Kartothek's common metadata holds only
   * nullable fields).
   */
  public Schema declaredSchema() {
    List<Field> fields = new ArrayList<>();
    for (Field field : FlinkArrowTypes.toSchema(rowType).getFields()) {
      fields.add(nullable(field));
    }
    return new Schema(fields);
  }

  /** Whether the sink writes a changelog by a primary key ({@code docs/cdc.md}). */
  public boolean hasPrimaryKey() {
    return !primaryKey.isEmpty();
  }

  /** The declared Arrow fields of the partition columns, in label order. */
  public List<Field> partitionFields() {
    Schema declared = declaredSchema();
    return partitionColumns.stream().map(declared::findField).toList();
  }

  private static Field nullable(Field field) {
    List<Field> children = field.getChildren().stream().map(KartothekSinkConfig::nullable).toList();
    FieldType type = new FieldType(true, field.getType(), field.getDictionary(), field.getMetadata());
    return new Field(field.getName(), type, children);
  }

  @Override
  public String toString() {
    return "KartothekSinkConfig{store=" + store + ", dataset=" + dataset + ", rowType=" + rowType.asSummaryString()
        + ", partitionColumns=" + partitionColumns + ", indexColumns=" + indexColumns + ", compression="
        + compression + ", rowGroupSizeBytes=" + rowGroupSizeBytes + ", memoryBudgetBytes=" + memoryBudgetBytes
        + ", validationPolicy=" + validationPolicy + ", writeMode=" + writeMode
        + (dimensionColumns.isEmpty() ? "" : ", dimensionColumns=" + dimensionColumns)
        + (primaryKey.isEmpty() ? "" : ", primaryKey=" + primaryKey)
        + ", verifyFilesOlderThan=" + verifyFilesOlderThan + "}";
  }
}
