package io.ktk.flink.source.testing;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes real cubes for tests, the way a writer of this project does: Parquet data files
 * ({@link ParquetRowsWriter}, partition columns left out of the files), one commit per call
 * ({@link CommitLog}, with secondary indices and Kartothek's cube metadata), then the published
 * plateau view ({@link PlateauPublisher}). Remembers every file it wrote, with its partition values
 * and the version that added it, for reference implementations.
 */
public final class CubeFixture {
  /** A file written: its dataset, label, key, partition values, the version that added it. */
  public record WrittenFile(String datasetId, String label, String key, List<Object> partitionValues, long version,
      int rows) {}

  private final ObjectStore store;
  private final CubeSpec spec;
  private final List<WrittenFile> written = new ArrayList<>();

  public CubeFixture(ObjectStore store, CubeSpec spec) {
    this.store = store;
    this.spec = spec;
  }

  public static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  public ObjectStore store() {
    return store;
  }

  public CubeSpec spec() {
    return spec;
  }

  public List<WrittenFile> written() {
    return List.copyOf(written);
  }

  /**
   * A dataset of the cube with {@code schema} (partition columns included; rows are given in its
   * field order) and secondary indices on {@code indexColumns}. It is partitioned by the cube's
   * partition columns that {@code schema} has, in the schema's order (all of them for the seed; an
   * enrichment may have some only, as Kartothek allows).
   */
  public DatasetWriter dataset(String id, Schema schema, String... indexColumns) throws IOException {
    return new DatasetWriter(id, schema, List.of(indexColumns));
  }

  /** Commits to one dataset. */
  public final class DatasetWriter {
    private final String id;
    private final Schema schema;
    private final Schema physical;
    private final List<Field> partitionKeys;
    private final List<String> indexColumns;
    private final CommitLog log;
    private final PlateauPublisher publisher = new PlateauPublisher();
    private int fileCounter;
    private int rowsPerGroup;

    private DatasetWriter(String id, Schema schema, List<String> indexColumns) throws IOException {
      this.id = id;
      this.schema = schema;
      this.indexColumns = indexColumns;
      this.partitionKeys = schema.getFields().stream().filter(f -> spec.partitionColumns().contains(f.getName()))
          .toList();
      this.physical = new Schema(schema.getFields().stream()
          .filter(f -> !spec.partitionColumns().contains(f.getName())).toList());
      this.log = CommitLog.open(store, spec.datasetUuid(id), CommitLogOptions.DEFAULTS);
    }

    /** Cuts the row groups of the files written from now on after every {@code rows} rows (0: by size). */
    public DatasetWriter rowsPerGroup(int rows) {
      this.rowsPerGroup = rows;
      return this;
    }

    /** Commits {@code rows} as one file per partition, with generated file ids. */
    public DatasetWriter commit(List<List<Object>> rows) throws IOException {
      Map<List<Object>, List<List<Object>>> byPartition = new LinkedHashMap<>();
      for (List<Object> row : rows) {
        byPartition.computeIfAbsent(partitionValues(row), k -> new ArrayList<>()).add(row);
      }
      Map<String, List<List<Object>>> files = new LinkedHashMap<>();
      byPartition.forEach((values, partitionRows) -> files.put(String.format("f%05d", fileCounter++), partitionRows));
      return commitFiles(files);
    }

    /** Commits one file per entry: file id to rows (all of one partition). */
    public DatasetWriter commitFiles(Map<String, List<List<Object>>> filesById) throws IOException {
      List<DataFile> files = new ArrayList<>();
      Map<String, Map<IndexValue, List<String>>> index = emptyIndex();
      for (Map.Entry<String, List<List<Object>>> e : filesById.entrySet()) {
        files.add(writeFile(e.getKey(), e.getValue(), index));
      }
      DatasetChange request = DatasetChange.append(partitionKeys.stream().map(Field::getName).toList(), schema, files)
          .withIndex(indexColumns, index)
          .withMetadata(Map.copyOf(CubeMetadataKeys.datasetMetadata(spec, id)));
      remember(files, filesById, log.commit(request).version());
      return this;
    }

    /**
     * Compacts, the way compaction does: replaces the files {@code inputs} by one file {@code
     * fileId} holding {@code rows} (the caller gives the rows the inputs hold, last written winning),
     * in one rewrite whose file counts as written at the newest input's version (and is remembered
     * so, in place of the inputs).
     */
    public DatasetWriter rewrite(List<WrittenFile> inputs, String fileId, List<List<Object>> rows) throws IOException {
      Map<String, Map<IndexValue, List<String>>> index = emptyIndex();
      DataFile merged = writeFile(fileId, rows, index);
      long newest = inputs.stream().mapToLong(WrittenFile::version).max().orElseThrow();
      DatasetChange request = DatasetChange.rewrite(schema, inputs.stream().map(WrittenFile::label).toList(),
          List.of(merged), Map.of(merged.label(), newest), index);
      log.commit(request);
      written.removeAll(inputs);
      remember(List.of(merged), Map.of(fileId, rows), newest);
      return this;
    }

    private Map<String, Map<IndexValue, List<String>>> emptyIndex() {
      Map<String, Map<IndexValue, List<String>>> index = new LinkedHashMap<>();
      indexColumns.forEach(column -> index.put(column, new LinkedHashMap<>()));
      return index;
    }

    /** Writes one data file of {@code rows} (all of one partition) and adds its values to {@code index}. */
    private DataFile writeFile(String fileId, List<List<Object>> rows, Map<String, Map<IndexValue, List<String>>> index)
        throws IOException {
      List<Object> values = partitionValues(rows.get(0));
      PartitionLabel label = PartitionLabel.of(partitionKeys, values, fileId);
      String key = spec.datasetUuid(id) + "/table/" + label + ".parquet";
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, physical, Map.of(),
          ParquetWriteOptions.defaults())) {
        for (List<Object> row : rows) {
          if (!partitionValues(row).equals(values)) {
            throw new IllegalArgumentException("file " + fileId + " mixes partitions " + values + " and "
                + partitionValues(row));
          }
          List<Object> physicalRow = new ArrayList<>();
          for (int i = 0; i < schema.getFields().size(); i++) {
            if (!spec.partitionColumns().contains(schema.getFields().get(i).getName())) {
              physicalRow.add(row.get(i));
            }
          }
          writer.write(physicalRow);
          if (rowsPerGroup > 0 && writer.rowCount() % rowsPerGroup == 0) {
            writer.endRowGroup();
          }
        }
      }
      for (String column : indexColumns) {
        int position = schema.getFields().indexOf(schema.findField(column));
        for (List<Object> row : rows) {
          Object value = row.get(position);
          if (value != null) {
            List<String> labels = index.get(column).computeIfAbsent(IndexValue.of(value), v -> new ArrayList<>());
            if (!labels.contains(label.toString())) {
              labels.add(label.toString());
            }
          }
        }
      }
      return new DataFile(label.toString(), rows.size(), store.head(key).orElseThrow().size(), physical);
    }

    /** Publishes the plateau view of the version just committed and remembers its files as added in {@code version}. */
    private void remember(List<DataFile> files, Map<String, List<List<Object>>> rowsById, long version)
        throws IOException {
      publisher.publish(log);
      Iterator<List<List<Object>>> rows = rowsById.values().iterator();
      for (DataFile file : files) {
        List<List<Object>> fileRows = rows.next();
        written.add(new WrittenFile(id, file.label(), spec.datasetUuid(id) + "/table/" + file.label() + ".parquet",
            partitionValues(fileRows.get(0)), version, fileRows.size()));
      }
    }

    private List<Object> partitionValues(List<Object> row) {
      List<Object> values = new ArrayList<>();
      for (Field key : partitionKeys) {
        values.add(row.get(schema.getFields().indexOf(key)));
      }
      return values;
    }
  }
}
