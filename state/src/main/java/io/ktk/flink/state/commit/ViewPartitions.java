package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.DatasetMetadataJson;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code partitions} of a dataset's metadata JSON, serialised per physical partition and kept
 * between publications of the same dataset. The metadata JSON is one object, written whole at
 * every publication; a checkpoint changes a few physical partitions, so only their part of the
 * JSON (and of the view's digest) is made again, and the others' bytes are reused.
 *
 * <p>A partition is unchanged when it holds the same {@link DataFile} instances as at the last
 * publication: a {@link DatasetState} moves entry by entry and keeps the instances of the files it
 * keeps (also in its copies), so the check costs one pass over the references, and the labels of
 * two files per partition. A state read afresh (a snapshot) has new instances: then every
 * partition is serialised again, once.
 */
final class ViewPartitions {
  /** One physical partition as last published: its files, its JSON members and their digest sum. */
  private record Partition(DataFile[] files, byte[] json, long digest) {}

  /** The partitions of one publication, in label order, with the digest sum of all its files. */
  record Serialized(List<byte[]> json, long digest, int files, int partitionsSerialized) {}

  private String uuid;
  private Map<String, Partition> published = new HashMap<>();

  /** The partitions of {@code state}'s files, reusing what an earlier call serialised. */
  Serialized serialize(DatasetState state) {
    if (!state.uuid().equals(uuid)) {
      uuid = state.uuid();
      published = new HashMap<>();
    }
    Map<String, Partition> next = new HashMap<>(Math.max(16, published.size() * 2));
    List<byte[]> json = new ArrayList<>(published.size() + 16);
    List<DataFile> group = new ArrayList<>();
    long digest = 0;
    int serialized = 0;
    // Files come in label order, so the files of a physical partition ("day=1/region=a/") follow
    // each other, and the partitions come in the order of their labels. The files of a partition
    // that are the instances published last are passed by reference alone: of an unchanged
    // partition only the labels of its first file and of the file after it are looked at.
    Iterator<DataFile> files = state.files().values().iterator();
    DataFile file = files.hasNext() ? files.next() : null;
    while (file != null) {
      String label = file.label();
      String prefix = label.substring(0, label.lastIndexOf('/') + 1);
      Partition previous = published.get(prefix);
      group.clear();
      int same = 0;
      while (previous != null && file != null && same < previous.files().length && previous.files()[same] == file) {
        group.add(file);
        same++;
        file = files.hasNext() ? files.next() : null;
      }
      while (file != null && inPartition(file.label(), prefix)) {
        group.add(file);
        file = files.hasNext() ? files.next() : null;
      }
      Partition partition = previous != null && same == previous.files().length && group.size() == same
          ? previous
          : partition(group);
      serialized += partition == previous ? 0 : 1;
      next.put(prefix, partition);
      json.add(partition.json());
      digest += partition.digest();
    }
    published = next;
    return new Serialized(json, digest, state.files().size(), serialized);
  }

  private static boolean inPartition(String label, String prefix) {
    return label.startsWith(prefix) && label.indexOf('/', prefix.length()) < 0;
  }

  private Partition partition(List<DataFile> files) {
    List<Map.Entry<String, String>> keys = new ArrayList<>(files.size());
    long digest = 0;
    for (DataFile file : files) {
      String key = file.key(uuid);
      keys.add(new AbstractMap.SimpleImmutableEntry<>(file.label(), key));
      digest += ViewDigest.fileHash(file.label(), key);
    }
    return new Partition(files.toArray(DataFile[]::new), DatasetMetadataJson.partitionMembers(keys), digest);
  }

  /** For tests: the partitions kept. */
  int size() {
    return published.size();
  }
}
