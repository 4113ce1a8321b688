package io.ktk.flink.source.dataset;

import io.ktk.flink.state.types.TypedValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializes {@link DatasetSplit}s for checkpoints and for sending them to readers.
 *
 * <p>Version 1, big-endian ({@link java.io.DataOutput}); strings are an int length and UTF-8
 * bytes; values as {@link TypedValueCodec} writes them (a tag byte, then the value):
 *
 * <pre>
 * split := string splitId, long version, int v, value{v} (partition values),
 *          string key, string label, long rows, long bytes, long emittedRows
 * </pre>
 *
 * <p>Example: split {@code file-000001} of version 3, partition {@code p=1} (int64), 17 rows
 * emitted starts {@code 00 00 00 0b "file-000001" 00 00 00 00 00 00 00 03 00 00 00 01 01 00 00 00
 * 00 00 00 00 01 ...} and ends {@code 00 00 00 00 00 00 00 11}. Bytes of each version are kept
 * under {@code src/test/resources/serializer/} and read back by a test.
 */
@Internal
public final class DatasetSplitSerializer implements SimpleVersionedSerializer<DatasetSplit> {
  public static final int VERSION = 1;
  public static final DatasetSplitSerializer INSTANCE = new DatasetSplitSerializer();

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DatasetSplit split) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      TypedValueCodec.writeString(out, split.splitId());
      out.writeLong(split.version());
      out.writeInt(split.partitionValues().size());
      for (Object value : split.partitionValues()) {
        TypedValueCodec.write(out, value);
      }
      TypedValueCodec.writeString(out, split.key());
      TypedValueCodec.writeString(out, split.label());
      out.writeLong(split.rows());
      out.writeLong(split.bytes());
      out.writeLong(split.emittedRows());
    }
    return bytes.toByteArray();
  }

  @Override
  public DatasetSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unrecognized version or corrupt state: dataset split version " + version
          + " (supported: " + VERSION + ")");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      String splitId = TypedValueCodec.readString(in);
      long datasetVersion = in.readLong();
      int count = in.readInt();
      if (count < 0) {
        throw new IOException("Unrecognized version or corrupt state: negative count " + count);
      }
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        values.add(TypedValueCodec.read(in));
      }
      DatasetSplit split;
      try {
        split = new DatasetSplit(splitId, datasetVersion, values, TypedValueCodec.readString(in),
            TypedValueCodec.readString(in), in.readLong(), in.readLong(), in.readLong());
      } catch (IllegalArgumentException e) {
        throw new IOException("Unrecognized version or corrupt state: " + e.getMessage(), e);
      }
      if (in.available() > 0) {
        throw new IOException("Unrecognized version or corrupt state: " + in.available()
            + " bytes after the dataset split");
      }
      return split;
    }
  }
}
