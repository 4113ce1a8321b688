package io.ktk.flink.source.dataset;

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
 * Serializes {@link DatasetEnumeratorState}, big-endian; each split as {@link
 * DatasetSplitSerializer} of {@code splitVersion} writes it, so that the split format can evolve
 * on its own.
 *
 * <pre>
 * version 1: int splitVersion, int n, (int length, split bytes){n}
 * </pre>
 *
 * <p>Bytes of each version are kept under {@code src/test/resources/serializer/}.
 */
@Internal
public final class DatasetEnumeratorStateSerializer implements SimpleVersionedSerializer<DatasetEnumeratorState> {
  public static final int VERSION = 1;
  public static final DatasetEnumeratorStateSerializer INSTANCE = new DatasetEnumeratorStateSerializer();

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DatasetEnumeratorState state) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(DatasetSplitSerializer.VERSION);
      out.writeInt(state.unassigned().size());
      for (DatasetSplit split : state.unassigned()) {
        byte[] serialized = DatasetSplitSerializer.INSTANCE.serialize(split);
        out.writeInt(serialized.length);
        out.write(serialized);
      }
    }
    return bytes.toByteArray();
  }

  @Override
  public DatasetEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unrecognized version or corrupt state: dataset enumerator state version " + version
          + " (supported: " + VERSION + ")");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      int splitVersion = in.readInt();
      int count = in.readInt();
      if (count < 0) {
        throw new IOException("Unrecognized version or corrupt state: negative split count " + count);
      }
      List<DatasetSplit> splits = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int length = in.readInt();
        if (length < 0) {
          throw new IOException("Unrecognized version or corrupt state: negative split length " + length);
        }
        byte[] split = new byte[length];
        in.readFully(split);
        splits.add(DatasetSplitSerializer.INSTANCE.deserialize(splitVersion, split));
      }
      if (in.available() > 0) {
        throw new IOException("Unrecognized version or corrupt state: " + in.available()
            + " bytes after the dataset enumerator state");
      }
      return new DatasetEnumeratorState(splits);
    }
  }
}
