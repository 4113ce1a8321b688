package io.ktk.flink.ingest;

import io.ktk.flink.sink.RejectedRecord;
import io.ktk.flink.sink.config.ValidationPolicy;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Where an ingest writes: adds the writing sink to the stream of rows and returns the sink's
 * dead-letter stream: a plain dataset, or one dataset of a cube.
 */
public interface IngestTarget extends Serializable {

  /**
   * Adds the sink (stable operator uids from {@code uid}, writer ids starting with {@code
   * writerIdPrefix}); returns the rejected records.
   */
  DataStream<RejectedRecord> addTo(DataStream<RowData> rows, ValidationPolicy policy, String writerIdPrefix,
      String uid);

  /** "dataset 'x' in file:///data/", for messages. */
  String describe();

  /**
   * One dataset through {@link io.ktk.flink.sink.KartothekSink}; with a primary key, the rows are
   * upserted and deleted by it ({@code docs/cdc.md}).
   */
  record Dataset(String storeUrl, Map<String, String> storeOptions, String uuid, RowType rowType,
      List<String> partitionOn, List<String> indexOn, List<String> primaryKey) implements IngestTarget {
    public Dataset {
      storeOptions = Map.copyOf(storeOptions);
      partitionOn = List.copyOf(partitionOn);
      indexOn = List.copyOf(indexOn);
      primaryKey = List.copyOf(primaryKey);
    }

    /** A dataset without a primary key. */
    public Dataset(String storeUrl, Map<String, String> storeOptions, String uuid, RowType rowType,
        List<String> partitionOn, List<String> indexOn) {
      this(storeUrl, storeOptions, uuid, rowType, partitionOn, indexOn, List.of());
    }

    @Override
    public DataStream<RejectedRecord> addTo(DataStream<RowData> rows, ValidationPolicy policy, String writerIdPrefix,
        String uid) {
      return io.ktk.flink.sink.KartothekSink.forRowData(rowType)
          .store(storeUrl, storeOptions)
          .dataset(uuid)
          .partitionBy(partitionOn)
          .indexBy(indexOn)
          .primaryKey(primaryKey)
          .validationPolicy(policy)
          .writerIdPrefix(writerIdPrefix)
          .build()
          .addTo(rows, uid);
    }

    @Override
    public String describe() {
      return "dataset '" + uuid + "' in " + storeUrl;
    }
  }

  /**
   * One dataset of a cube through {@link io.ktk.flink.sink.KartothekCubeSink}: the seed, or an
   * enrichment of the cube whose seed is {@code seedDatasetId}; with {@code changelog}, the rows are
   * changes upserted and deleted by cell.
   */
  record CubeDataset(String storeUrl, Map<String, String> storeOptions, String cube, String datasetId, boolean seed,
      String seedDatasetId, RowType rowType, List<String> dimensionColumns, List<String> partitionColumns,
      boolean changelog) implements IngestTarget {
    public CubeDataset {
      storeOptions = Map.copyOf(storeOptions);
      dimensionColumns = List.copyOf(dimensionColumns);
      partitionColumns = List.copyOf(partitionColumns);
    }

    /** A dataset of inserts. */
    public CubeDataset(String storeUrl, Map<String, String> storeOptions, String cube, String datasetId, boolean seed,
        String seedDatasetId, RowType rowType, List<String> dimensionColumns, List<String> partitionColumns) {
      this(storeUrl, storeOptions, cube, datasetId, seed, seedDatasetId, rowType, dimensionColumns, partitionColumns,
          false);
    }

    @Override
    public DataStream<RejectedRecord> addTo(DataStream<RowData> rows, ValidationPolicy policy, String writerIdPrefix,
        String uid) {
      var builder = io.ktk.flink.sink.KartothekCubeSink.forCube(cube)
          .store(storeUrl, storeOptions)
          .dimensionColumns(dimensionColumns.toArray(String[]::new))
          .partitionColumns(partitionColumns.toArray(String[]::new))
          .validationPolicy(policy)
          .writerIdPrefix(writerIdPrefix);
      if (changelog) {
        builder.changelog();
      }
      if (seed) {
        builder.seed(datasetId, rowType);
      } else {
        builder.seedDatasetId(seedDatasetId).enrichment(datasetId, rowType);
      }
      return builder.build().addTo(Map.of(datasetId, rows), uid);
    }

    @Override
    public String describe() {
      return (seed ? "seed" : "enrichment") + " dataset '" + datasetId + "' of cube '" + cube + "' in " + storeUrl;
    }
  }
}
