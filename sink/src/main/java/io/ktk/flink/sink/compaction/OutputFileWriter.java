package io.ktk.flink.sink.compaction;

import io.ktk.flink.sink.writer.DataFileFooter;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import io.ktk.flink.state.parquet.ParquetCodecs;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.parquet.StoreOutputFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.schema.MessageType;

/**
 * Writes one file of a rewrite: the rows of a {@link PlannedOutput}'s inputs, in order (for a cube
 * dataset, or one with a primary key, without the rows a later row of the same cell or key
 * supersedes, see {@link SupersededRows}), with the dataset's committed schema, whatever physical
 * types the inputs have. For a dataset with a primary key, an output that starts at the
 * partition's oldest file also drops the deleted keys and is a plain data file; any other output is
 * a change file, with the deletes and their marker column.
 *
 * <p>The file is written as {@code PartFileWriter} writes the sink's files (a {@link
 * ParquetFileWriter} over a {@link StoreOutputFile}, the sink's codec, version 1 data pages,
 * statistics and column indexes), except that each column is written on its own ({@link
 * OutputColumn}), so that an input row group is copied column by column ({@link InputFileCopier}):
 * flat columns by a {@link ChunkWriter}, nested ones by parquet-column's column writers. A row group
 * is cut after an input row group once the columns hold the configured row group size. A column is
 * dictionary encoded when the input it starts a row group with was (the sink and pyarrow leave out
 * dictionaries that do not pay). The object appears whole when written; after a failure nothing is
 * left.
 */
final class OutputFileWriter {
  private final ObjectStore store;
  private final RewriteLayout layout;
  private final ParquetWriteOptions options;
  private final ParquetProperties properties;

  OutputFileWriter(ObjectStore store, RewriteLayout layout, ParquetWriteOptions options) {
    this.store = store;
    this.layout = layout;
    this.options = options;
    // Size statistics (level histograms, unencoded sizes) are optional and cost time per value; readers use
    // the min/max statistics and column indexes, which stay.
    this.properties = ParquetProperties.copy(options.properties()).withSizeStatisticsEnabled(false).build();
  }

  /** A written file with what its commit needs. */
  record WrittenFile(DataFile file, long sequence, Map<String, Set<Object>> index, long rowsIn, long bytesIn) {}

  /**
   * Writes the rows of {@code output} as the file {@code <partition>/<fileId>}; returns null when
   * no row is left (every input empty), and then writes nothing.
   */
  WrittenFile write(PlannedOutput output, String fileId) throws IOException {
    String partition = output.inputs().get(0).file().physicalPartition();
    String label = partition.isEmpty() ? fileId : partition + "/" + fileId;
    String uuid = layout.uuid();
    // A dataset with a primary key: an output that starts at the partition's oldest file holds the
    // partition's state (no deletes, no marker column); any other keeps its deletes, which may hide
    // rows of older files, and stays a change file (docs/cdc.md).
    boolean changeFile = layout.keyed() && !output.fromOldest();
    boolean[][][] keep = !layout.deduplicates() ? null
        : SupersededRows.keep(store, uuid, output.inputs(), layout.cellColumns(), layout.keyed() && !changeFile);
    Schema schema = changeFile ? layout.changeSchema() : layout.dataSchema();
    MessageType parquetSchema = changeFile ? ArrowParquetSchemas.toParquet(schema) : layout.parquetSchema();

    List<OutputColumn> columns = new ArrayList<>();
    for (Field field : schema.getFields()) {
      boolean indexed = layout.indexColumns().contains(field.getName());
      columns.add(new OutputColumn(field, indexed ? new IndexCollector(field) : null,
          "dataset '" + uuid + "', file '" + label + "'"));
    }
    StoreOutputFile file = new StoreOutputFile(store, uuid + "/table/" + label + ".parquet");
    CompressionCodecFactory.BytesInputCompressor compressor =
        new ParquetCodecs(options.zstdLevel()).getCompressor(options.compression());
    long rowsIn = 0;
    long rowsOut = 0;
    try {
      ParquetFileWriter fileWriter = options.startFileWriter(file, parquetSchema, properties);
      ColumnChunkPageWriteStore pages = null;
      long groupRows = 0;
      for (int f = 0; f < output.inputs().size(); f++) {
        CompactionInput input = output.inputs().get(f);
        String source = "dataset '" + uuid + "', file '" + input.label() + "'";
        try (InputFileCopier copier = new InputFileCopier(store, input.file().key(uuid), source, columns,
            layout.keyed())) {
          rowsIn += copier.rowCount();
          for (int g = 0; g < copier.rowGroups().size(); g++) {
            boolean[] kept = keep == null ? null : keep[f][g];
            long rows = kept == null ? copier.rowGroups().get(g).getRowCount() : count(kept);
            if (rows == 0) {
              continue;
            }
            if (pages == null) {
              pages = startRowGroup(columns, copier, g, compressor, parquetSchema);
            }
            copier.copy(g, kept);
            groupRows += rows;
            if (bufferedSize(columns) >= options.rowGroupSizeBytes()) {
              endRowGroup(columns, pages, fileWriter, groupRows);
              rowsOut += groupRows;
              pages = null;
              groupRows = 0;
            }
          }
        }
      }
      if (pages != null) {
        endRowGroup(columns, pages, fileWriter, groupRows);
        rowsOut += groupRows;
      }
      if (rowsOut == 0) {
        file.abort();
        return null;
      }
      fileWriter.end(changeFile ? DataFileFooter.keyValues(schema) : layout.footer());
      DataFile written = new DataFile(label, rowsOut, fileWriter.getPos(), schema);
      return new WrittenFile(written, output.sequence(), indexValues(columns, label), rowsIn, output.inputBytes());
    } catch (IOException | RuntimeException e) {
      file.abort();
      throw e;
    } finally {
      compressor.release();
    }
  }

  private ColumnChunkPageWriteStore startRowGroup(List<OutputColumn> columns, InputFileCopier first, int rowGroup,
      CompressionCodecFactory.BytesInputCompressor compressor, MessageType parquetSchema) {
    ParquetProperties properties = this.properties;
    ColumnChunkPageWriteStore pages = ColumnChunkPageWriteStore.builder()
        .withCompressorProvider(column -> compressor)
        .withSchema(parquetSchema)
        .withAllocator(properties.getAllocator())
        .withColumnIndexTruncateLength(properties.getColumnIndexTruncateLength())
        .withPageWriteChecksumEnabled(properties.getPageWriteChecksumEnabled())
        .build();
    for (int c = 0; c < columns.size(); c++) {
      boolean dictionary = options.dictionaryEncoding() && first.dictionaryEncoded(c, rowGroup);
      columns.get(c).start(properties, pages, dictionary);
    }
    return pages;
  }

  private static void endRowGroup(List<OutputColumn> columns, ColumnChunkPageWriteStore pages,
      ParquetFileWriter fileWriter, long rows) throws IOException {
    for (OutputColumn column : columns) {
      column.finish();
    }
    fileWriter.startBlock(rows);
    pages.flushToFileWriter(fileWriter);
    fileWriter.endBlock();
    pages.close();
  }

  private static long bufferedSize(List<OutputColumn> columns) {
    long bytes = 0;
    for (OutputColumn column : columns) {
      bytes += column.bufferedSize();
    }
    return bytes;
  }

  private static long count(boolean[] kept) {
    long rows = 0;
    for (boolean k : kept) {
      rows += k ? 1 : 0;
    }
    return rows;
  }

  /**
   * Per index column, the values of the file: gathered from its rows, or, for a partition column,
   * the partition's value.
   */
  private Map<String, Set<Object>> indexValues(List<OutputColumn> columns, String label) {
    Map<String, Set<Object>> index = new LinkedHashMap<>();
    for (OutputColumn column : columns) {
      if (column.index != null) {
        index.put(column.field.getName(), column.index.values());
      }
    }
    List<Object> partitionValues = null;
    for (int k = 0; k < layout.partitionKeys().size(); k++) {
      String key = layout.partitionKeys().get(k).getName();
      if (layout.indexColumns().contains(key)) {
        if (partitionValues == null) {
          partitionValues = PartitionLabel.parse(label, layout.partitionKeys()).typedValues();
        }
        index.put(key, Set.of(partitionValues.get(k)));
      }
    }
    return index;
  }
}
