package io.ktk.flink.source.split;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.state.types.TypedValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializes {@link CubeSplit}s for checkpoints and for sending them to readers.
 *
 * <p>Version 1, big-endian ({@link DataOutput}); strings are an int length and UTF-8 bytes; values
 * as {@link TypedValueCodec} writes them (the project's one codec of typed values: its tags are
 * those this format has had since version 1, so moving to it changed no byte):
 *
 * <pre>
 * split      := string splitId, int n, (string datasetId, long version){n}, group, long emittedRows
 * group      := int k, value{k} (key), int p, partition{p}
 * partition  := string path, int v, value{v}, int d, (string datasetId, int f, file{f}){d}
 * file       := string key, string label, long rows, long bytes, long addedIn, boolean keysOnly
 * </pre>
 *
 * <p>A plain dataset's source ({@link #PLAIN_DATASETS}) writes the same layout as its version 2:
 * its version 1 is what that source checkpointed before it read through the cube stack, one file
 * per split ({@link FileSplitFormat}), which still restores.
 *
 * <p>Bytes of each version are kept under {@code src/test/resources/serializer/} and read back by
 * a test, so a later version still restores splits checkpointed by this one.
 */
@Internal
public final class CubeSplitSerializer implements SimpleVersionedSerializer<CubeSplit> {
  /** The version of the layout above, a cube source's. */
  public static final int VERSION = 1;
  /** The splits of a cube's source. */
  public static final CubeSplitSerializer INSTANCE = new CubeSplitSerializer(VERSION, "cube split", null);
  /** The splits of a plain dataset's source: version 2 is the layout above, version 1 {@link FileSplitFormat}. */
  public static final CubeSplitSerializer PLAIN_DATASETS =
      new CubeSplitSerializer(2, "dataset split", FileSplitFormat::read);

  private final int version;
  /** What the splits are, for messages. */
  private final String what;
  /** How version 1 is read, when it is not the layout above; else null. */
  private final SplitFormat earlier;

  private CubeSplitSerializer(int version, String what, SplitFormat earlier) {
    this.version = version;
    this.what = what;
    this.earlier = earlier;
  }

  @Override
  public int getVersion() {
    return version;
  }

  @Override
  public byte[] serialize(CubeSplit split) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      write(out, split);
    }
    return bytes.toByteArray();
  }

  @Override
  public CubeSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version == this.version) {
      return readWhole(serialized, what, CubeSplitSerializer::read);
    }
    if (version == 1 && earlier != null) {
      return readWhole(serialized, what, earlier);
    }
    throw new IOException("Unrecognized version or corrupt state: " + what + " version " + version + " (supported: "
        + (earlier != null ? "1, " : "") + this.version + ")");
  }

  /** How a split is read from a stream. */
  interface SplitFormat {
    CubeSplit read(DataInput in) throws IOException;
  }

  /** Reads a split from {@code serialized}, which must hold nothing after it. */
  private static CubeSplit readWhole(byte[] serialized, String what, SplitFormat format) throws IOException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      CubeSplit split = format.read(in);
      if (in.available() > 0) {
        throw new IOException("Unrecognized version or corrupt state: " + in.available() + " bytes after the " + what);
      }
      return split;
    }
  }

  /** Writes a split in version {@link #VERSION} (also used inside the enumerator's state). */
  static void write(DataOutput out, CubeSplit split) throws IOException {
    TypedValueCodec.writeString(out, split.splitId());
    out.writeInt(split.versions().size());
    for (Map.Entry<String, Long> e : split.versions().entrySet()) {
      TypedValueCodec.writeString(out, e.getKey());
      out.writeLong(e.getValue());
    }
    QueryGroup group = split.group();
    out.writeInt(group.key().size());
    for (Object value : group.key()) {
      TypedValueCodec.write(out, value);
    }
    out.writeInt(group.partitions().size());
    for (GroupPartition partition : group.partitions()) {
      TypedValueCodec.writeString(out, partition.path());
      out.writeInt(partition.partitionValues().size());
      for (Object value : partition.partitionValues()) {
        TypedValueCodec.write(out, value);
      }
      out.writeInt(partition.files().size());
      for (Map.Entry<String, List<PlannedFile>> e : partition.files().entrySet()) {
        TypedValueCodec.writeString(out, e.getKey());
        out.writeInt(e.getValue().size());
        for (PlannedFile file : e.getValue()) {
          TypedValueCodec.writeString(out, file.key());
          TypedValueCodec.writeString(out, file.label());
          out.writeLong(file.rows());
          out.writeLong(file.bytes());
          out.writeLong(file.addedIn());
          out.writeBoolean(file.keysOnly());
        }
      }
    }
    out.writeLong(split.emittedRows());
  }

  /** Reads a split of version {@link #VERSION}. */
  static CubeSplit read(DataInput in) throws IOException {
    String splitId = TypedValueCodec.readString(in);
    Map<String, Long> versions = new TreeMap<>();
    for (int i = count(in); i > 0; i--) {
      versions.put(TypedValueCodec.readString(in), in.readLong());
    }
    List<Object> key = new ArrayList<>();
    for (int i = count(in); i > 0; i--) {
      key.add(TypedValueCodec.read(in));
    }
    List<GroupPartition> partitions = new ArrayList<>();
    for (int p = count(in); p > 0; p--) {
      String path = TypedValueCodec.readString(in);
      List<Object> values = new ArrayList<>();
      for (int i = count(in); i > 0; i--) {
        values.add(TypedValueCodec.read(in));
      }
      Map<String, List<PlannedFile>> files = new LinkedHashMap<>();
      for (int d = count(in); d > 0; d--) {
        String datasetId = TypedValueCodec.readString(in);
        List<PlannedFile> list = new ArrayList<>();
        for (int f = count(in); f > 0; f--) {
          list.add(new PlannedFile(TypedValueCodec.readString(in), TypedValueCodec.readString(in), in.readLong(), in.readLong(),
              in.readLong(), in.readBoolean()));
        }
        files.put(datasetId, list);
      }
      partitions.add(new GroupPartition(path, values, files));
    }
    return new CubeSplit(splitId, versions, new QueryGroup(key, partitions), in.readLong());
  }

  static int count(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("Unrecognized version or corrupt state: negative count " + n);
    }
    return n;
  }
}
