package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.TypedCondition;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * What a query reads from one dataset and how it joins it.
 *
 * @param datasetId the dataset's id in the cube
 * @param uuid the dataset's uuid ({@code <cube>++<id>})
 * @param role seed, restricted (inner join) or enrichment (left join)
 * @param merge how the dataset's rows of one key become one (or, for a plain dataset without a key,
 *     are all kept)
 * @param dimensionColumns all of the dataset's own dimension columns (a plain dataset's: its primary
 *     key without the partition columns), also those the query drops
 * @param keyColumns the columns rows are identified and joined by within a physical partition: the
 *     dataset's dimension columns that the query keeps, in cube order (partition columns are equal
 *     within a partition, so they are not part of the key)
 * @param projected whether the dataset has dimension columns the query drops: then several of its
 *     cells share a key, and a key is kept when any of its rows satisfies the conditions (only the
 *     seed can be projected: it is then read for its keys alone)
 * @param readColumns the columns read from the files, key columns first; partition columns are not
 *     read (they come from the labels)
 * @param conditions the conditions tested on the rows read (on read columns only; conditions on
 *     partition columns were decided by the planner)
 */
@Internal
public record DatasetRead(
    String datasetId,
    String uuid,
    DatasetRole role,
    RowMerge merge,
    List<String> dimensionColumns,
    List<Field> keyColumns,
    boolean projected,
    List<Field> readColumns,
    List<TypedCondition> conditions) {

  public DatasetRead {
    requireNonNull(datasetId, "datasetId is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(role, "role is null");
    requireNonNull(merge, "merge is null");
    dimensionColumns = List.copyOf(dimensionColumns);
    keyColumns = List.copyOf(keyColumns);
    readColumns = List.copyOf(readColumns);
    conditions = List.copyOf(conditions);
    if (!readColumns.subList(0, Math.min(keyColumns.size(), readColumns.size())).equals(keyColumns)) {
      throw new IllegalArgumentException("read columns " + readColumns + " must start with the key columns " + keyColumns);
    }
    if (projected && role != DatasetRole.SEED) {
      throw new IllegalArgumentException("only the seed can be projected, not " + datasetId);
    }
  }

  /**
   * Whether a file that the secondary index of {@code column} rules out (it holds no value that
   * passes a condition on the column) holds no row of a qualifying cell, so that it need not be
   * read at all. True for a cube dataset's dimension columns (a failing value fails its whole
   * cell) and for every column of a plain dataset without a key (every row stands alone). Never
   * for a dataset with a primary key: a file that the index rules out may hold deletes of
   * qualifying keys, which must be read (for their keys).
   */
  public boolean indexDecidesFiles(String column) {
    return switch (merge) {
      case NONE -> true;
      case CELLS -> dimensionColumns.contains(column);
      case UPSERTS -> false;
    };
  }

  /** The names of the read columns, in order. */
  public List<String> readColumnNames() {
    return readColumns.stream().map(Field::getName).toList();
  }
}
