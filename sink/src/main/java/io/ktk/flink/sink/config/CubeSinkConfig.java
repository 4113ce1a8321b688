package io.ktk.flink.sink.config;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.metadata.CubeSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Everything a cube sink needs at run time, checked when it is built ({@link
 * io.ktk.flink.sink.KartothekCubeSinkBuilder}): the cube and, per dataset the job writes, its id
 * and the config of its dataset {@code <cube>++<id>}.
 *
 * <p>The job's datasets travel through one stream of rows of {@link #unionType()}: field 0 is the
 * dataset's position in {@link #datasetIds()}, field 1 the hash of the record's cell (which routes
 * it to a writer subtask), then every column of any dataset, once (a column shared by datasets is
 * a cell column and has one type in all of them).
 */
@Internal
public record CubeSinkConfig(
    String cube,
    List<String> dimensionColumns,
    List<String> partitionColumns,
    String seedDatasetId,
    List<String> suppressIndexOn,
    List<String> datasetIds,
    List<KartothekSinkConfig> datasets)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Field 0 of the union rows. */
  public static final String DATASET_FIELD = "_ktk_cube_dataset";
  /** Field 1 of the union rows. */
  public static final String CELL_HASH_FIELD = "_ktk_cube_cell_hash";

  public CubeSinkConfig {
    requireNonNull(cube, "cube is null");
    dimensionColumns = List.copyOf(dimensionColumns);
    partitionColumns = List.copyOf(partitionColumns);
    requireNonNull(seedDatasetId, "seedDatasetId is null");
    suppressIndexOn = List.copyOf(suppressIndexOn);
    datasetIds = List.copyOf(datasetIds);
    datasets = List.copyOf(datasets);
    if (datasetIds.size() != datasets.size() || datasets.isEmpty()) {
      throw new IllegalArgumentException(datasetIds.size() + " dataset ids for " + datasets.size() + " datasets");
    }
  }

  public CubeSpec spec() {
    return new CubeSpec(cube, dimensionColumns, partitionColumns, seedDatasetId, new TreeSet<>(suppressIndexOn));
  }

  /** The config of dataset {@code id}, or null when the job does not write it. */
  public KartothekSinkConfig dataset(String id) {
    int position = datasetIds.indexOf(id);
    return position < 0 ? null : datasets.get(position);
  }

  /** The cell columns dataset number {@code d} has: the partition columns, then its dimension columns. */
  public List<String> cellColumns(int d) {
    List<String> columns = new ArrayList<>(partitionColumns);
    columns.addAll(datasets.get(d).dimensionColumns());
    return columns;
  }

  /** The type of the rows of all datasets on their way to the writers (see the class comment). */
  public RowType unionType() {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField(DATASET_FIELD, new IntType(false)));
    fields.add(new RowType.RowField(CELL_HASH_FIELD, new IntType(false)));
    List<String> names = new ArrayList<>();
    for (KartothekSinkConfig dataset : datasets) {
      for (RowType.RowField field : dataset.rowType().getFields()) {
        if (!names.contains(field.getName())) {
          names.add(field.getName());
          LogicalType type = field.getType().copy(true);
          fields.add(new RowType.RowField(field.getName(), type));
        }
      }
    }
    return new RowType(false, fields);
  }

  /** For dataset number {@code d}, the position in {@link #unionType()} of each of its columns. */
  public int[] unionPositions(int d) {
    List<String> names = unionType().getFieldNames();
    return datasets.get(d).rowType().getFieldNames().stream().mapToInt(names::indexOf).toArray();
  }
}
