package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.writer.CubeContract;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds a {@link KartothekCubeSink}: the cube, its dimension and partition columns, and the
 * datasets the job writes, each with its row type. Options are those of {@link KartothekSinkOptions}
 * and apply to all datasets:
 *
 * <pre>{@code
 * KartothekCubeSink sink = KartothekCubeSink.forCube("sales")
 *     .store("s3://bucket/cubes", Map.of("region", "eu-central-1"))
 *     .dimensionColumns("store", "product")
 *     .partitionColumns("day")
 *     .seed("seed", seedRowType)              // all dimension and partition columns
 *     .enrichment("weather", weatherRowType)  // all partition columns, some dimension columns
 *     .suppressIndexOn("product")             // the seed gets no index on product
 *     .validationPolicy(ValidationPolicy.DEAD_LETTER)
 *     .build();
 * DataStream<RejectedRecord> rejected = sink.addTo(Map.of("seed", seedRows, "weather", weatherRows));
 * }</pre>
 *
 * <p>{@link #changelog()} makes the streams changelogs upserted and deleted by cell.
 *
 * <p>A job may write enrichments only: then the cube's seed must exist in the store (checked at
 * start) and {@link #seedDatasetId} names it when its id is not {@code seed}.
 */
@PublicEvolving
public final class KartothekCubeSinkBuilder extends SinkSettingsBuilder<KartothekCubeSinkBuilder> {
  private final String cube;
  private List<String> dimensionColumns = List.of();
  private List<String> partitionColumns = List.of();
  private List<String> suppressIndexOn = List.of();
  private String seedDatasetId;
  private boolean changelog;
  private final Map<String, RowType> datasets = new LinkedHashMap<>();

  KartothekCubeSinkBuilder(String cube) {
    this.cube = requireNonNull(cube, "cube is null");
  }

  @Override
  KartothekCubeSinkBuilder self() {
    return this;
  }

  @Override
  List<ConfigOption<?>> acceptedOptions() {
    List<ConfigOption<?>> options = new ArrayList<>(KartothekSinkOptions.all());
    options.remove(KartothekSinkOptions.DATASET);
    options.remove(KartothekSinkOptions.INDEX_COLUMNS);
    options.addAll(KartothekSinkOptions.cubeOnly());
    options.addAll(io.ktk.flink.sink.maintenance.MaintenanceOptions.all());
    return options;
  }

  /** The columns that, with the partition columns, identify a cell; in cube order. */
  public KartothekCubeSinkBuilder dimensionColumns(String... columns) {
    this.dimensionColumns = List.of(columns);
    return this;
  }

  /** The partition columns of every dataset of the cube, in label order. */
  public KartothekCubeSinkBuilder partitionColumns(String... columns) {
    this.partitionColumns = List.of(columns);
    return this;
  }

  /** Dimension columns the seed gets no secondary index on (Kartothek's {@code suppress_index_on}). */
  public KartothekCubeSinkBuilder suppressIndexOn(String... columns) {
    this.suppressIndexOn = List.of(columns);
    return this;
  }

  /**
   * The streams are changelogs ({@code docs/cdc.md}): each dataset gets the primary key of its cells
   * (its dimension columns, then the partition columns), {@code +I} and {@code +U} rows upsert a
   * cell, {@code -D} rows delete it, {@code -U} rows are ignored, and a cell changed twice in one
   * checkpoint is an upsert rather than a refused duplicate. Without it, the sink takes inserts only.
   */
  public KartothekCubeSinkBuilder changelog() {
    this.changelog = true;
    return this;
  }

  /** The seed dataset {@code <cube>++<id>}, written by this job, with the type of its records. */
  public KartothekCubeSinkBuilder seed(String id, RowType rowType) {
    if (seedDatasetId != null && datasets.containsKey(seedDatasetId)) {
      throw new KtkValidationException("Cannot build the sink of cube '" + cube + "': two seeds, " + seedDatasetId
          + " and " + id + " (rule: exactly one seed)");
    }
    this.seedDatasetId = requireNonNull(id, "id is null");
    return dataset(id, rowType);
  }

  /** The id of the seed when this job does not write it ({@code seed} by default). */
  public KartothekCubeSinkBuilder seedDatasetId(String id) {
    this.seedDatasetId = requireNonNull(id, "id is null");
    return this;
  }

  /** An enrichment dataset {@code <cube>++<id>}, written by this job, with the type of its records. */
  public KartothekCubeSinkBuilder enrichment(String id, RowType rowType) {
    return dataset(id, rowType);
  }

  private KartothekCubeSinkBuilder dataset(String id, RowType rowType) {
    requireNonNull(rowType, "rowType is null");
    CubeNames.checkName("dataset id", id);
    if (id.equals(CubeCommitLog.DATASET_ID)) {
      throw new KtkValidationException("Cannot build the sink of cube '" + cube + "': dataset id " + id
          + " is reserved for the cube's transaction log");
    }
    if (datasets.put(id, rowType) != null) {
      throw new KtkValidationException("Cannot build the sink of cube '" + cube + "': dataset " + id + " is given twice");
    }
    return this;
  }

  /**
   * Applies options given as text: the store, write and commit settings of {@link
   * KartothekSinkOptions} (as the dataset sink takes them), and {@code dimension-columns}, {@code
   * partition-columns}, {@code suppress-index-on} (comma-separated).
   */
  public KartothekCubeSinkBuilder options(Map<String, String> options) {
    Configuration config = applySharedOptions(options);
    config.getOptional(KartothekSinkOptions.PARTITION_COLUMNS).map(OptionKeys::names).ifPresent(c -> partitionColumns(c.toArray(String[]::new)));
    config.getOptional(KartothekSinkOptions.DIMENSION_COLUMNS).map(OptionKeys::names).ifPresent(c -> dimensionColumns(c.toArray(String[]::new)));
    config.getOptional(KartothekSinkOptions.SUPPRESS_INDEX_ON).map(OptionKeys::names).ifPresent(c -> suppressIndexOn(c.toArray(String[]::new)));
    return this;
  }

  /**
   * Builds the sink, checking the cube rules that need no store: valid names, the cube's columns
   * ({@link CubeSpec}), every dataset has all partition columns, the seed all dimension columns and
   * every enrichment at least one, a cell column has one type in all datasets, and no payload
   * column is in two datasets. Where the store can be read from here, the rules against what it
   * holds ({@link CubeContract}) too; the writers check those again when the job starts.
   *
   * @throws KtkValidationException naming the cube, dataset, columns and rule
   */
  public KartothekCubeSink build() {
    CubeNames.checkName("cube name", cube);
    if (store == null) {
      throw invalid("no store given; call store(url)");
    }
    if (datasets.isEmpty()) {
      throw invalid("no dataset given; call seed(id, rowType) or enrichment(id, rowType)");
    }
    String seed = seedDatasetId == null ? CubeNames.DEFAULT_SEED_DATASET_ID : seedDatasetId;
    CubeSpec spec;
    try {
      spec = new CubeSpec(cube, dimensionColumns, partitionColumns, seed, new TreeSet<>(suppressIndexOn));
    } catch (KtkValidationException e) {
      throw invalid(e.getMessage());
    }
    Map<String, ArrowType> cellTypes = new HashMap<>();
    Map<String, String> cellTypeFrom = new HashMap<>();
    Map<String, String> payloadOwner = new HashMap<>();
    List<String> ids = new ArrayList<>();
    List<KartothekSinkConfig> configs = new ArrayList<>();
    for (Map.Entry<String, RowType> dataset : datasets.entrySet()) {
      String id = dataset.getKey();
      RowType rowType = dataset.getValue();
      List<String> columns = rowType.getFieldNames();
      boolean isSeed = id.equals(seed);
      NavigableSet<String> missingPartitions = new TreeSet<>(partitionColumns);
      missingPartitions.removeAll(columns);
      if (!missingPartitions.isEmpty()) {
        throw invalid("dataset " + id + " lacks partition columns " + missingPartitions
            + " (rule: every dataset has all partition columns)");
      }
      List<String> dimensions = dimensionColumns.stream().filter(columns::contains).toList();
      if (isSeed && dimensions.size() != dimensionColumns.size()) {
        NavigableSet<String> missing = new TreeSet<>(dimensionColumns);
        missing.removeAll(columns);
        throw invalid("seed dataset " + id + " lacks dimension columns " + missing
            + " (rule: the seed has every dimension column)");
      }
      if (dimensions.isEmpty()) {
        throw invalid("dataset " + id + " has none of the dimension columns " + dimensionColumns
            + " (rule: every dataset has at least one dimension column)");
      }
      for (RowType.RowField field : rowType.getFields()) {
        String column = field.getName();
        if (column.equals(CubeSinkConfig.DATASET_FIELD) || column.equals(CubeSinkConfig.CELL_HASH_FIELD)) {
          throw invalid("dataset " + id + " has column " + column + ", a name the sink reserves");
        }
        if (dimensionColumns.contains(column) || partitionColumns.contains(column)) {
          ArrowType type = FlinkArrowTypes.toField(column, field.getType()).getType();
          ArrowType before = cellTypes.putIfAbsent(column, type);
          cellTypeFrom.putIfAbsent(column, id);
          if (before != null && !before.equals(type)) {
            throw invalid("cell column '" + column + "' is " + before + " in dataset " + cellTypeFrom.get(column)
                + " but " + type + " in dataset " + id + " (rule: datasets join on cell columns of one type)");
          }
        } else {
          String owner = payloadOwner.putIfAbsent(column, id);
          if (owner != null) {
            throw invalid("datasets " + owner + " and " + id + " both have payload column '" + column
                + "' (rule: a payload column belongs to one dataset)");
          }
        }
      }
      List<String> indexColumns = isSeed ? spec.indexedDimensionColumns() : List.of();
      List<String> primaryKey = new ArrayList<>();
      if (changelog) {
        primaryKey.addAll(dimensions);
        primaryKey.addAll(partitionColumns);
      }
      configs.add(new KartothekSinkConfig(store, spec.datasetUuid(id), rowType, partitionColumns, indexColumns,
          compression, rowGroupSize.getBytes(), memoryBudget.getBytes(), validationPolicy, writeMode, dimensions,
          verifyFilesOlderThan, publishMinInterval, writerIdPrefix, primaryKey));
      ids.add(id);
    }
    CubeSinkConfig config = new CubeSinkConfig(cube, dimensionColumns, partitionColumns, seed,
        List.copyOf(spec.suppressIndexOn()), ids, configs);
    StoreChecks.whereReadable(store, "cube '" + cube + "'", opened -> {
      if (!datasets.containsKey(seed) && !new LogReader(opened, spec.datasetUuid(seed)).latestOrPublished().exists()) {
        return; // the seed may still be written before this job starts; the writers check it then
      }
      List<DatasetState> committed = new ArrayList<>();
      for (KartothekSinkConfig dataset : configs) {
        committed.add(new LogReader(opened, dataset.dataset()).latestOrPublished());
      }
      CubeContract.check(config.spec(), ids, configs, opened, committed);
    });
    return new KartothekCubeSink(config, maintenance());
  }

  private KtkValidationException invalid(String reason) {
    return new KtkValidationException("Cannot build the sink of cube '" + cube + "': " + reason);
  }
}
