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
 * Serializes {@link CubeEnumeratorState}, big-endian; each split as the split serializer of the
 * source ({@link CubeSplitSerializer#INSTANCE}, or {@link CubeSplitSerializer#PLAIN_DATASETS} for a
 * plain dataset's source) of {@code splitVersion} writes it, so that the split format can evolve on its own.
 *
 * <pre>
 * version 2: int splitVersion, int n, (int length, split bytes){n}, long servedSeedVersion, long discoveries
 * version 1: int splitVersion, int n, (int length, split bytes){n}          (bounded sources only)
 * </pre>
 *
 * <p>Version 1 still restores (as a bounded state: served seed version -1, no discoveries); its
 * bytes are kept under {@code src/test/resources/serializer/}. The state a plain dataset's source
 * checkpointed before it read through the cube stack has the layout of version 1, with splits of
 * version 1 of {@link CubeSplitSerializer#PLAIN_DATASETS}: {@link #PLAIN_DATASETS} restores it.
 */
@Internal
public final class CubeEnumeratorStateSerializer implements SimpleVersionedSerializer<CubeEnumeratorState> {
  public static final int VERSION = 2;
  /** The state of a cube's source. */
  public static final CubeEnumeratorStateSerializer INSTANCE =
      new CubeEnumeratorStateSerializer("cube enumerator state", CubeSplitSerializer.INSTANCE);
  /** The state of a plain dataset's source. */
  public static final CubeEnumeratorStateSerializer PLAIN_DATASETS =
      new CubeEnumeratorStateSerializer("dataset enumerator state", CubeSplitSerializer.PLAIN_DATASETS);

  /** What the state is, for messages. */
  private final String what;
  private final SimpleVersionedSerializer<CubeSplit> splitSerializer;

  private CubeEnumeratorStateSerializer(String what, SimpleVersionedSerializer<CubeSplit> splitSerializer) {
    this.what = what;
    this.splitSerializer = splitSerializer;
  }

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(CubeEnumeratorState state) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(splitSerializer.getVersion());
      out.writeInt(state.unassigned().size());
      for (CubeSplit split : state.unassigned()) {
        byte[] serialized = splitSerializer.serialize(split);
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
      throw new IOException("Unrecognized version or corrupt state: " + what + " version " + version
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
        splits.add(splitSerializer.deserialize(splitVersion, split));
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
            + " bytes after the " + what);
      }
      return new CubeEnumeratorState(splits, servedSeedVersion, discoveries);
    }
  }
}
