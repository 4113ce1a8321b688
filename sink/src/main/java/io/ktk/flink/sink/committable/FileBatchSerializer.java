package io.ktk.flink.sink.committable;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.ArrowSchemaMetadata;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.types.TypedValueCodec;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Serializes {@link FileBatch}es in Flink state (the committer's) and between operators.
 *
 * <p>Version 2, big-endian; {@code str} is a 4-byte length and UTF-8 bytes, {@code schema} the
 * base64 {@code ARROW:schema} text of the schema as a {@code str}, {@code value} a typed value as
 * {@link TypedValueCodec} writes it (tag byte, then the value: {@code 01} + i64 for a Long, {@code
 * 03} + str for a String, {@code 04} + u8 for a Boolean, ...):
 *
 * <pre>
 * str dataset, str writerId, i64 checkpointId, i64 writtenAtMillis (-1: unknown), schema logical schema
 * i32 n, n * str partition columns         i32 n, n * str index columns
 * i32 s, s * schema physical schemas (each distinct one once)
 * i32 f, f * (str label, i64 rows, i64 bytes, i32 physical schema number or -1)
 * i32 c, c * (str column, i32 v, v * (value, i32 l, l * i32 file number))
 * </pre>
 *
 * <p>Version 1 (still read; its batches get the write time {@link FileBatch#UNKNOWN_WRITE_TIME},
 * so the committer checks that their files exist) has no {@code writtenAtMillis} and its own value
 * tags, which differ from the shared codec's in two places: 1 i64 | 2 f64 bits | <b>3 u8 bool | 4
 * str</b> | 5 i32 length, bytes | 6 i64 epoch day | 7 i64 epoch second, i32 nano (LocalDateTime,
 * UTC wall clock) | 8 i64 epoch second, i32 nano (Instant) | 9 i64 nano of day | 10 i32 scale, i32
 * length, unscaled bytes; no null.
 *
 * <p>Another version, or bytes left over, fail with "Unrecognized version or corrupt state".
 * {@code src/test/resources/serializer/} keeps bytes of every version ({@code file-batch-v1.bin},
 * {@code file-batch-v1-values.bin}, {@code file-batch-v2.bin}) so a change of format cannot go
 * unnoticed.
 */
public final class FileBatchSerializer implements SimpleVersionedSerializer<FileBatch> {
  public static final int VERSION = 2;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(FileBatch batch) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    writeString(out, batch.dataset());
    writeString(out, batch.writerId());
    out.writeLong(batch.checkpointId());
    out.writeLong(batch.writtenAtMillis());
    writeString(out, ArrowSchemaMetadata.encode(batch.schema()));
    writeStrings(out, batch.partitionColumns());
    writeStrings(out, batch.indexColumns());
    List<Schema> schemas = new ArrayList<>();
    Map<Schema, Integer> schemaNumbers = new HashMap<>();
    for (DataFile file : batch.files()) {
      if (file.physicalSchema() != null && !schemaNumbers.containsKey(file.physicalSchema())) {
        schemaNumbers.put(file.physicalSchema(), schemas.size());
        schemas.add(file.physicalSchema());
      }
    }
    out.writeInt(schemas.size());
    for (Schema schema : schemas) {
      writeString(out, ArrowSchemaMetadata.encode(schema));
    }
    Map<String, Integer> fileNumbers = new HashMap<>();
    out.writeInt(batch.files().size());
    for (DataFile file : batch.files()) {
      fileNumbers.put(file.label(), fileNumbers.size());
      writeString(out, file.label());
      out.writeLong(file.rows());
      out.writeLong(file.bytes());
      out.writeInt(file.physicalSchema() == null ? -1 : schemaNumbers.get(file.physicalSchema()));
    }
    out.writeInt(batch.index().size());
    for (Map.Entry<String, Map<IndexValue, List<String>>> column : batch.index().entrySet()) {
      writeString(out, column.getKey());
      out.writeInt(column.getValue().size());
      for (Map.Entry<IndexValue, List<String>> value : column.getValue().entrySet()) {
        TypedValueCodec.write(out, value.getKey().value());
        out.writeInt(value.getValue().size());
        for (String label : value.getValue()) {
          out.writeInt(fileNumbers.get(label));
        }
      }
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public FileBatch deserialize(int version, byte[] serialized) throws IOException {
    if (version != 1 && version != VERSION) {
      throw new IOException("Unrecognized version or corrupt state: version " + version + " of a file batch; "
          + "this sink reads versions 1 and " + VERSION);
    }
    try {
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      String dataset = readString(in);
      String writerId = readString(in);
      long checkpointId = in.readLong();
      long writtenAtMillis = version == 1 ? FileBatch.UNKNOWN_WRITE_TIME : in.readLong();
      Schema schema = ArrowSchemaMetadata.decode(readString(in), "a file batch");
      List<String> partitionColumns = readStrings(in);
      List<String> indexColumns = readStrings(in);
      int schemaCount = count(in);
      List<Schema> schemas = new ArrayList<>(schemaCount);
      for (int s = 0; s < schemaCount; s++) {
        schemas.add(ArrowSchemaMetadata.decode(readString(in), "a file batch"));
      }
      int fileCount = count(in);
      List<DataFile> files = new ArrayList<>(fileCount);
      for (int f = 0; f < fileCount; f++) {
        String label = readString(in);
        long rows = in.readLong();
        long bytes = in.readLong();
        int schemaNumber = in.readInt();
        files.add(new DataFile(label, rows, bytes, schemaNumber < 0 ? null : schemas.get(schemaNumber)));
      }
      int columnCount = count(in);
      Map<String, Map<IndexValue, List<String>>> index = new LinkedHashMap<>();
      for (int c = 0; c < columnCount; c++) {
        String column = readString(in);
        int valueCount = count(in);
        Map<IndexValue, List<String>> values = new LinkedHashMap<>();
        for (int v = 0; v < valueCount; v++) {
          Object value = version == 1 ? readVersion1Value(in) : TypedValueCodec.read(in);
          int labelCount = count(in);
          List<String> labels = new ArrayList<>(labelCount);
          for (int l = 0; l < labelCount; l++) {
            labels.add(files.get(in.readInt()).label());
          }
          values.put(IndexValue.of(value), labels);
        }
        index.put(column, values);
      }
      if (in.available() > 0) {
        throw new IOException("Unrecognized version or corrupt state: " + in.available()
            + " bytes after a file batch of version " + version);
      }
      return new FileBatch(dataset, writerId, checkpointId, schema, partitionColumns, indexColumns, files, index,
          writtenAtMillis);
    } catch (IOException e) {
      throw e.getMessage() != null && e.getMessage().startsWith("Unrecognized")
          ? e
          : new IOException("Unrecognized version or corrupt state: cannot read a file batch of version " + version
              + ": " + e, e);
    } catch (RuntimeException e) {
      throw new IOException("Unrecognized version or corrupt state: cannot read a file batch of version " + version
          + ": " + e, e);
    }
  }

  /** Version 1's own value tags (Boolean 3, String 4; no null), kept only to read its bytes. */
  private static Object readVersion1Value(DataInputDeserializer in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case 1 -> in.readLong();
      case 2 -> Double.longBitsToDouble(in.readLong());
      case 3 -> in.readBoolean();
      case 4 -> readString(in);
      case 5 -> readBytes(in);
      case 6 -> LocalDate.ofEpochDay(in.readLong());
      case 7 -> LocalDateTime.ofEpochSecond(in.readLong(), in.readInt(), ZoneOffset.UTC);
      case 8 -> Instant.ofEpochSecond(in.readLong(), in.readInt());
      case 9 -> LocalTime.ofNanoOfDay(in.readLong());
      case 10 -> {
        int scale = in.readInt();
        yield new BigDecimal(new BigInteger(readBytes(in)), scale);
      }
      default -> throw new IOException("Unrecognized version or corrupt state: unknown index value tag " + tag
          + " in a file batch of version 1");
    };
  }

  private static void writeStrings(DataOutputSerializer out, List<String> strings) throws IOException {
    out.writeInt(strings.size());
    for (String string : strings) {
      writeString(out, string);
    }
  }

  private static List<String> readStrings(DataInputDeserializer in) throws IOException {
    int count = count(in);
    List<String> strings = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      strings.add(readString(in));
    }
    return strings;
  }

  private static void writeString(DataOutputSerializer out, String string) throws IOException {
    TypedValueCodec.writeString(out, string);
  }

  private static String readString(DataInputDeserializer in) throws IOException {
    return new String(readBytes(in), StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(DataInputDeserializer in) throws IOException {
    byte[] bytes = new byte[count(in)];
    in.readFully(bytes);
    return bytes;
  }

  private static int count(DataInputDeserializer in) throws IOException {
    int count = in.readInt();
    if (count < 0 || count > in.available()) {
      throw new IOException("Unrecognized version or corrupt state: a count of " + count + " with " + in.available()
          + " bytes left");
    }
    return count;
  }
}
