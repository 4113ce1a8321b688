package io.ktk.flink.source.planner;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CubeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * Plans a cube query as Kartothek's query system describes it, from the pinned versions of the cube's
 * datasets and without reading any data file:
 *
 * <ol>
 *   <li>Check the query against the cube ({@link QueryChecker}): columns, types, dimensionality,
 *       roles (seed, restricted, enrichment), what to read from each dataset.
 *   <li>Per-dataset partitions ({@link DatasetPartitions}): the files of each physical partition,
 *       pruned by pre-conditions on partition values and secondary indices, with the values of the
 *       {@code partition_by} columns each file holds (from the indices).
 *   <li>Alignment on physical partitions, the seed's partitions being the ground truth: a partition
 *       other datasets have but the seed lacks is dropped; a partition a restricted dataset lacks (or
 *       where none of its files qualifies) is dropped (inner join); enrichments join with whatever files
 *       they have there, maybe none (left join). A dataset partitioned by only some of the partition
 *       columns aligns on those: its partition {@code p=1} joins the seed's {@code p=1/q=a} and {@code
 *       p=1/q=b} alike, as in Kartothek 5.3.
 *   <li>Re-grouping by {@code partition_by}: a partition holding several {@code partition_by}
 *       values (from the files' index values) goes to several groups, each reading the files that hold
 *       its value; without {@code partition_by} every physical partition is a group.
 * </ol>
 *
 * <p>Groups are ordered by their key (the {@code partition_by} values, else the partition values),
 * and partitions within a group by partition values; the readers sort rows within a partition by the
 * query's dimension columns. Concatenating the groups gives the result in that order.
 */
@Internal
public final class CubePlanner {

  /** A non-partition {@code partition_by} column: its position in the key and the dataset whose index gives its values. */
  private record IndexedKey(int position, String column, String owner, boolean payload) {}

  private CubePlanner() {}

  /**
   * Plans {@code query} over the given versions of the cube's datasets.
   *
   * @param datasets one snapshot per dataset of the cube, by dataset id; the seed must be among them
   * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit the cube
   * @throws io.ktk.flink.state.KtkValidationException when the datasets break a cube rule the query relies on
   */
  public static QueryPlan plan(CubeSpec cube, Map<String, DatasetSnapshot> datasets, CubeQuery query) {
    return plan(resolve(cube, datasets, query), datasets);
  }

  /**
   * Step 1 alone: checks {@code query} against the datasets and decides what it reads; what a
   * reader of planned groups needs.
   *
   * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit the cube
   */
  public static ResolvedQuery resolve(CubeSpec cube, Map<String, DatasetSnapshot> datasets, CubeQuery query) {
    return QueryChecker.check(cube, datasets, query);
  }

  /** Steps 2 to 4 for a checked query (of a cube, or of a plain dataset). */
  static QueryPlan plan(ResolvedQuery resolved, Map<String, DatasetSnapshot> datasets) {
    List<String> partitionColumns = resolved.partitionColumnNames();
    List<String> dimensionColumns = resolved.dimensionColumns().stream().map(Field::getName).toList();
    String seedId = resolved.seed().datasetId();
    List<IndexedKey> indexedKeys = new ArrayList<>();
    List<Field> partitionBy = resolved.partitionBy();
    for (int i = 0; i < partitionBy.size(); i++) {
      String column = partitionBy.get(i).getName();
      if (partitionColumns.contains(column)) {
        continue;
      }
      if (dimensionColumns.contains(column)) {
        indexedKeys.add(new IndexedKey(i, column, seedId, false));
      } else {
        String owner = resolved.datasets().stream()
            .filter(d -> d.readColumnNames().contains(column)).findFirst().orElseThrow().datasetId();
        indexedKeys.add(new IndexedKey(i, column, owner, true));
      }
    }

    Map<String, DatasetPartitions> partitions = new LinkedHashMap<>();
    Map<String, Long> versions = new TreeMap<>();
    for (DatasetRead read : resolved.datasets()) {
      List<String> owned = indexedKeys.stream().filter(k -> k.owner().equals(read.datasetId()))
          .map(IndexedKey::column).toList();
      DatasetSnapshot snapshot = datasets.get(read.datasetId());
      partitions.put(read.datasetId(), DatasetPartitions.build(resolved, read, snapshot, owned));
      versions.put(read.datasetId(), snapshot.version());
    }

    List<Field> keyColumns = partitionBy.isEmpty() ? resolved.partitionColumns() : partitionBy;
    TreeMap<List<Object>, List<GroupPartition>> groups = new TreeMap<>(ValuesOrder.of(keyColumns));
    DatasetPartitions seed = partitions.get(seedId);
    // every row of a dataset without a key stands alone: each of its files is a partition of its own
    boolean filesApart = resolved.seed().merge() == RowMerge.NONE;
    for (DatasetPartitions.Entry seedEntry : seed.entries()) {
      for (List<Object> indexedValues : combinations(indexedKeys, partitions, seedEntry.values(),
          resolved.query().kartothekSemantics())) {
        Map<String, List<PlannedFile>> files = new LinkedHashMap<>();
        for (DatasetRead read : resolved.datasets()) {
          DatasetPartitions dataset = partitions.get(read.datasetId());
          List<PlannedFile> chosen = choose(read, dataset, dataset.get(seedEntry.values()), indexedKeys,
              indexedValues, resolved.query().kartothekSemantics());
          if (chosen == null) {
            files = null;
            break;
          }
          files.put(read.datasetId(), chosen);
        }
        if (files == null) {
          continue;
        }
        List<Object> key = new ArrayList<>();
        if (partitionBy.isEmpty()) {
          key.addAll(seedEntry.values());
        } else {
          for (int i = 0, indexed = 0; i < partitionBy.size(); i++) {
            int partitionColumn = partitionColumns.indexOf(partitionBy.get(i).getName());
            key.add(partitionColumn >= 0 ? seedEntry.values().get(partitionColumn) : indexedValues.get(indexed++));
          }
        }
        List<GroupPartition> group = groups.computeIfAbsent(key, k -> new ArrayList<>());
        if (filesApart) {
          for (PlannedFile file : files.get(seedId)) {
            group.add(new GroupPartition(seedEntry.path(), seedEntry.values(), Map.of(seedId, List.of(file))));
          }
        } else {
          group.add(new GroupPartition(seedEntry.path(), seedEntry.values(), files));
        }
      }
    }
    List<QueryGroup> planned = new ArrayList<>(groups.size());
    groups.forEach((key, parts) -> planned.add(new QueryGroup(key, parts)));
    return new QueryPlan(resolved, versions, planned);
  }

  /**
   * The combinations of values of the index-based {@code partition_by} columns in one partition:
   * each column's values are those its owner's qualifying files hold there. One empty combination
   * when there are no such columns. With Kartothek semantics NaN is a missing value, which forms no
   * group (pandas' groupby drops it).
   */
  private static List<List<Object>> combinations(List<IndexedKey> keys, Map<String, DatasetPartitions> partitions,
      List<Object> partitionValues, boolean kartothek) {
    List<List<Object>> combinations = new ArrayList<>();
    combinations.add(List.of());
    for (IndexedKey key : keys) {
      DatasetPartitions.Entry entry = partitions.get(key.owner()).get(partitionValues);
      if (entry == null) {
        return List.of();
      }
      Set<Object> values = null;
      for (DatasetPartitions.Candidate candidate : entry.files()) {
        Set<Object> held = candidate.partitionByValues().get(key.column());
        if (held != null && (candidate.passesPayload() || !key.payload())) {
          if (values == null) {
            values = new TreeSet<>(((TreeSet<Object>) held).comparator());
          }
          values.addAll(held);
          if (kartothek) {
            values.removeIf(value -> value instanceof Double d && d.isNaN());
          }
        }
      }
      if (values == null) {
        return List.of();
      }
      List<List<Object>> extended = new ArrayList<>();
      for (List<Object> prefix : combinations) {
        for (Object value : values) {
          List<Object> combination = new ArrayList<>(prefix);
          combination.add(value);
          extended.add(combination);
        }
      }
      combinations = extended;
    }
    return combinations;
  }

  /**
   * The files of one dataset for one partition and combination of index-based {@code partition_by}
   * values, in write order; null when the seed or a restricted dataset has no qualifying file there
   * (the partition then yields no rows for this combination).
   */
  private static List<PlannedFile> choose(DatasetRead read, DatasetPartitions dataset, DatasetPartitions.Entry entry,
      List<IndexedKey> keys, List<Object> values, boolean kartothek) {
    if (entry == null) {
      return read.role() == DatasetRole.ENRICHMENT ? List.of() : null;
    }
    List<DatasetPartitions.Candidate> candidates = new ArrayList<>();
    // Files that fail on payload are read for their keys (their rows may overwrite qualifying ones),
    // except with Kartothek semantics, which filter rows before the last row of a cell is taken.
    boolean payloadFilter = !kartothek && (dataset.payloadPruning()
        || keys.stream().anyMatch(key -> key.owner().equals(read.datasetId()) && key.payload()));
    for (DatasetPartitions.Candidate candidate : entry.files()) {
      boolean exact = true;
      for (int k = 0; k < keys.size() && exact; k++) {
        IndexedKey key = keys.get(k);
        if (key.owner().equals(read.datasetId()) && !key.payload()) {
          exact = holds(candidate, key.column(), values.get(k));
        }
      }
      if (exact) {
        candidates.add(candidate);
      }
    }
    List<Boolean> qualifies = new ArrayList<>();
    for (DatasetPartitions.Candidate candidate : candidates) {
      boolean ok = candidate.passesPayload();
      for (int k = 0; k < keys.size() && ok; k++) {
        IndexedKey key = keys.get(k);
        if (key.owner().equals(read.datasetId()) && key.payload()) {
          ok = holds(candidate, key.column(), values.get(k));
        }
      }
      qualifies.add(ok);
    }
    int first = qualifies.indexOf(true);
    if (first < 0) {
      return read.role() == DatasetRole.ENRICHMENT ? List.of() : null;
    }
    List<PlannedFile> files = new ArrayList<>();
    for (int i = payloadFilter ? first : 0; i < candidates.size(); i++) {
      PlannedFile file = candidates.get(i).file();
      if (qualifies.get(i)) {
        files.add(file);
      } else if (payloadFilter) {
        files.add(file.asKeysOnly());
      }
    }
    return files;
  }

  private static boolean holds(DatasetPartitions.Candidate candidate, String column, Object value) {
    Set<Object> held = candidate.partitionByValues().get(column);
    return held != null && held.contains(value);
  }
}
