package io.ktk.flink.source.testing;

import static io.ktk.flink.source.testing.CubeFixture.field;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Dataset {@code customers} with primary key {@code (id, p)}, written as a changelog sink writes it
 * (change files with {@value PrimaryKey#DELETED_COLUMN}) directly through the state's API, in four
 * versions; see {@link #write}.
 */
public final class CustomersChangelog {
  public static final String UUID = "customers";
  public static final Field P = field("p", new ArrowType.Int(64, true));
  public static final Field ID = field("id", new ArrowType.Int(64, true));
  public static final Field NAME = field("name", ArrowType.Utf8.INSTANCE);
  public static final Field DELETED = field(PrimaryKey.DELETED_COLUMN, ArrowType.Bool.INSTANCE);
  public static final Schema SCHEMA = new Schema(List.of(P, ID, NAME));

  private final ObjectStore store;
  private final CommitLog log;

  private CustomersChangelog(ObjectStore store) throws java.io.IOException {
    this.store = store;
    this.log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
  }

  /** A change: a row of a change file. */
  private static List<Object> upsert(long id, String name) {
    return Arrays.asList(id, name, false);
  }

  private static List<Object> delete(long id) {
    return Arrays.asList(id, null, true);
  }

  /**
   * Commits one version of change files, by file id: partition value to rows {@code (id, name,
   * deleted)}. Files without deletes may leave the deleted column out (a folded file); the index of
   * {@code id} lists the keys of upserts only, as a writer may leave deletes out of it.
   */
  private void commit(boolean deletedColumn, Map<String, Map.Entry<Long, List<List<Object>>>> files) throws Exception {
    Schema physical = new Schema(deletedColumn ? List.of(ID, NAME, DELETED) : List.of(ID, NAME));
    List<DataFile> written = new ArrayList<>();
    Map<IndexValue, List<String>> index = new LinkedHashMap<>();
    for (Map.Entry<String, Map.Entry<Long, List<List<Object>>>> file : files.entrySet()) {
      long p = file.getValue().getKey();
      String label = PartitionLabel.of(List.of(P), List.of(p), file.getKey()).toString();
      String key = UUID + "/table/" + label + ".parquet";
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, physical, Map.of(),
          ParquetWriteOptions.defaults())) {
        for (List<Object> row : file.getValue().getValue()) {
          writer.write(deletedColumn ? row : row.subList(0, 2));
          if (!(Boolean) row.get(2)) {
            index.computeIfAbsent(IndexValue.of(row.get(0)), v -> new ArrayList<>()).add(label);
          }
        }
      }
      written.add(new DataFile(label, file.getValue().getValue().size(), store.head(key).orElseThrow().size(),
          physical));
    }
    log.commit(DatasetChange.append(List.of("p"), SCHEMA, written)
        .withIndex(List.of("id"), Map.of("id", index))
        .withMetadata(Map.of(PrimaryKey.METADATA_KEY, PrimaryKey.toJson(List.of("id", "p")))));
  }

  /**
   * Writes versions 0 to 3. Partition 1: version 0 upserts 1 (twice in one file: its later row
   * wins), 2 and 3; version 2 deletes 2, updates 3, inserts 4 and 5; version 3 inserts 2 again,
   * deletes 4 and updates 5 in a file whose label sorts before version 2's. Partition 2: a folded
   * file (no deleted column) in version 1, then a delete of 8 in version 2.
   */
  public static void write(ObjectStore store) throws Exception {
    new CustomersChangelog(store).writeChanges();
  }

  private void writeChanges() throws Exception {
    Map<String, Map.Entry<Long, List<List<Object>>>> first = new LinkedHashMap<>();
    first.put("m-1", Map.entry(1L, List.of(upsert(1, "ann"), upsert(2, "bob"), upsert(3, "cy"), upsert(1, "anna"))));
    commit(true, first);
    commit(false, Map.of("m-2", Map.entry(2L, List.of(upsert(7, "gus"), upsert(8, "hal"), upsert(9, "ida")))));
    Map<String, Map.Entry<Long, List<List<Object>>>> second = new LinkedHashMap<>();
    second.put("z-1", Map.entry(1L, List.of(delete(2), upsert(3, "cyd"), upsert(4, "dee"), upsert(5, "eve"))));
    second.put("z-2", Map.entry(2L, List.of(delete(8))));
    commit(true, second);
    commit(true, Map.of("a-1", Map.entry(1L, List.of(upsert(2, "bo"), delete(4), upsert(5, "eva")))));
  }
}
