package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.parquet.BytesInputFile;
import io.ktk.flink.state.parquet.BytesOutputFile;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * A dataset's {@code <uuid>/table/_common_metadata}: the schema plateau reads, as a Parquet file
 * with no row groups whose footer carries the schema three times: as the Parquet schema, as
 * {@link ArrowSchemaMetadata#KEY} and within it the {@link PandasMetadata#KEY} entry, which also
 * stands on its own in the footer (as {@code pyarrow.parquet.write_metadata} writes it).
 *
 * <p>The stored schema is laid out as plateau's {@code make_meta} lays it out: every field
 * nullable (nested ones too), the partition keys first in their order, then the other columns
 * sorted by name (by code point, as Python sorts strings). The types are written as given: the
 * caller passes the dataset's normalized schema.
 *
 * <p>Reading prefers {@code ARROW:schema} and falls back to the Parquet schema (a file written by
 * other tools without it). A missing, truncated or non-Parquet file, or an unreadable {@code
 * ARROW:schema}, fails with {@link CorruptDatasetException} naming the key.
 */
public final class CommonMetadataFile {
  private CommonMetadataFile() {}

  /** The schema as stored for {@code schema} partitioned by {@code partitionKeys}. */
  public static Schema layout(Schema schema, List<String> partitionKeys) {
    requireNonNull(schema, "schema is null");
    requireNonNull(partitionKeys, "partitionKeys is null");
    Map<String, Field> byName = new LinkedHashMap<>();
    for (Field field : schema.getFields()) {
      if (byName.put(field.getName(), field) != null) {
        throw new KtkValidationException(
            "Cannot lay out the schema of _common_metadata: column " + field.getName() + " appears twice");
      }
    }
    List<Field> fields = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String key : partitionKeys) {
      Field field = byName.get(key);
      if (field == null) {
        throw new KtkValidationException(
            "Cannot lay out the schema of _common_metadata: partition key " + key + " is not a column of "
                + byName.keySet());
      }
      if (!seen.add(key)) {
        throw new KtkValidationException(
            "Cannot lay out the schema of _common_metadata: partition key " + key + " appears twice");
      }
      fields.add(nullable(field));
    }
    byName.values().stream()
        .filter(field -> !seen.contains(field.getName()))
        .sorted(Comparator.comparing(Field::getName, IndexFile.valueOrder(ArrowType.Utf8.INSTANCE)))
        .forEach(field -> fields.add(nullable(field)));
    return new Schema(fields);
  }

  /** The file for {@code schema}, Snappy-compressed like plateau's. */
  public static byte[] write(Schema schema, List<String> partitionKeys) {
    BytesOutputFile file = new BytesOutputFile("_common_metadata");
    try {
      write(file, schema, partitionKeys);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write _common_metadata in memory", e);
    }
    return file.toByteArray();
  }

  /** Writes the file for {@code schema} to {@code key}, replacing what is there. */
  public static void write(ObjectStore store, String key, Schema schema, List<String> partitionKeys)
      throws IOException {
    store.put(key, write(schema, partitionKeys));
  }

  private static void write(OutputFile file, Schema schema, List<String> partitionKeys) throws IOException {
    Schema laidOut = layout(schema, partitionKeys);
    String pandas = PandasMetadata.of(laidOut);
    Schema withPandas = new Schema(laidOut.getFields(), Map.of(PandasMetadata.KEY, pandas));
    Map<String, String> keyValues = new LinkedHashMap<>();
    keyValues.put(ArrowSchemaMetadata.KEY, ArrowSchemaMetadata.encode(withPandas));
    keyValues.put(PandasMetadata.KEY, pandas);
    ParquetRowsWriter.create(file, laidOut, keyValues, ParquetWriteOptions.defaults()).close();
  }

  /** The schema stored in the file {@code data} read from {@code key}, without schema metadata. */
  public static Schema read(byte[] data, String key) {
    try {
      return read(new BytesInputFile(key, data), key);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + key + " from memory", e);
    }
  }

  /** The schema stored under {@code key}; a missing object is a {@link CorruptDatasetException}. */
  public static Schema read(ObjectStore store, String key) throws IOException {
    return read(new StoreInputFile(store, key), key);
  }

  private static Schema read(InputFile file, String key) throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(file)) {
      String arrowSchema = reader.keyValueMetadata().get(ArrowSchemaMetadata.KEY);
      if (arrowSchema == null) {
        return reader.arrowSchema();
      }
      Schema schema = ArrowSchemaMetadata.decode(arrowSchema, key);
      List<String> arrowNames = schema.getFields().stream().map(Field::getName).toList();
      List<String> parquetNames = reader.arrowSchema().getFields().stream().map(Field::getName).toList();
      if (!arrowNames.equals(parquetNames)) {
        throw new CorruptDatasetException(
            "Cannot read the schema of " + key + ": " + ArrowSchemaMetadata.KEY + " has columns " + arrowNames
                + ", the Parquet schema " + parquetNames);
      }
      return new Schema(schema.getFields());
    } catch (NoSuchObjectException e) {
      throw new CorruptDatasetException("Cannot read the schema of " + key + ": the object does not exist", e);
    } catch (CorruptDatasetException e) {
      if (e.getMessage().contains(key)) {
        throw e;
      }
      throw new CorruptDatasetException("Cannot read the schema of " + key + ": " + e.getMessage(), e);
    }
  }

  private static Field nullable(Field field) {
    List<Field> children = new ArrayList<>();
    for (Field child : field.getChildren()) {
      children.add(nullable(child));
    }
    FieldType type = field.getFieldType();
    return new Field(
        field.getName(), new FieldType(true, type.getType(), type.getDictionary(), type.getMetadata()), children);
  }
}
