package io.ktk.flink.source.enumerator;

import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplitSerializer;
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
 * Serializes {@link CubeEnumeratorState}, big-endian; each split as {@link CubeSplitSerializer} of
 * {@code splitVersion} writes it, so that the split format can evolve on its own.
 *
 * <pre>
 * version 2: int splitVersion, int n, (int length, split bytes){n}, long servedSeedVersion, long discoveries
 * version 1: int splitVersion, int n, (int length, split bytes){n}          (bounded sources only)
 * </pre>
 *
 * <p>Version 1 still restores (as a bounded state: served seed version -1, no discoveries); its
 * bytes are kept under {@code src/test/resources/serializer/}.
 */
@Internal
public final class CubeEnumeratorStateSerializer implements SimpleVersionedSerializer<CubeEnumeratorState> {
  public static final int VERSION = 2;
  public static final CubeEnumeratorStateSerializer INSTANCE = new CubeEnumeratorStateSerializer();

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(CubeEnumeratorState state) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(CubeSplitSerializer.VERSION);
      out.writeInt(state.unassigned().size());
      for (CubeSplit split : state.unassigned()) {
        byte[] serialized = CubeSplitSerializer.INSTANCE.serialize(split);
        out.writeInt(serialized.length);
        out.write(serialized);
      }
      out.writeLong(state.servedSeedVersion());
      out.writeLong(state.discoveries());
    }
    return bytes.toByteArray();
  }

  @Override
  public CubeEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != 1 && version != 2) {
      throw new IOException("Unrecognized version or corrupt state: cube enumerator state version " + version
          + " (supported: 1, " + VERSION + ")");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      int splitVersion = in.readInt();
      int n = in.readInt();
      if (n < 0) {
        throw new IOException("Unrecognized version or corrupt state: negative split count " + n);
      }
      List<CubeSplit> splits = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        int length = in.readInt();
        if (length < 0) {
          throw new IOException("Unrecognized version or corrupt state: negative split length " + length);
        }
        byte[] split = new byte[length];
        in.readFully(split);
        splits.add(CubeSplitSerializer.INSTANCE.deserialize(splitVersion, split));
      }
      long servedSeedVersion = -1;
      long discoveries = 0;
      if (version >= 2) {
        servedSeedVersion = in.readLong();
        discoveries = in.readLong();
        if (discoveries < 0) {
          throw new IOException("Unrecognized version or corrupt state: negative discovery count " + discoveries);
        }
      }
      if (in.available() > 0) {
        throw new IOException("Unrecognized version or corrupt state: " + in.available()
            + " bytes after the cube enumerator state");
      }
      return new CubeEnumeratorState(splits, servedSeedVersion, discoveries);
    }
  }
}
