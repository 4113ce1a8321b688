package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.DatasetRole;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.parquet.FooterCache;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Joins the datasets of one partition of a query group into result rows (Kartothek's
 * "intra-partition join"): the seed's kept keys are the cells; each restricted dataset must have a
 * kept row for a cell's key (inner join), each enrichment adds its row's columns or nulls when it
 * has none (left join; null, never NaN, whatever the column's type). Rows come sorted by the query's
 * dimension columns.
 *
 * <p>Each dataset's kept rows are in key order ({@link DatasetCells}), so a dataset is joined by
 * merging: on its key columns (its dimension columns, all among the seed's), whose values are taken
 * from the seed's rows. When those columns are not the first of the seed's, the seed's cells are
 * sorted by them first. Output columns are gathered from the joined rows' vectors.
 */
public final class PartitionJoin {
  /** Where an output column comes from: a partition value, or a read column of a dataset. */
  private record Source(int dataset, int column) {}

  private final ResolvedQuery query;
  /** Per dataset, the kinds of its key columns. */
  private final List<List<KeyKind>> kinds = new ArrayList<>();
  /** Per dataset, the positions of its key columns among the seed's. */
  private final List<int[]> seedKeyPositions = new ArrayList<>();
  /** Per dataset, the names of its key columns. */
  private final List<List<String>> keyNames = new ArrayList<>();
  /** How the current partition's keys are packed into one long, or null (see {@link KeyPacking}). */
  private KeyPacking packing;
  private final Source[] sources;
  private final boolean prune;
  private final RowGroupCounters counters;
  private final FooterCache footers;
  private final KeySort sort = new KeySort();

  /**
   * @param prune whether row groups are pruned by their statistics ({@link RowGroupPruning})
   * @param counters counts the row groups read and pruned
   */
  public PartitionJoin(ResolvedQuery query, boolean prune, RowGroupCounters counters) {
    this(query, prune, counters, null);
  }

  /**
   * @param footers where the footers of the files read are kept for reading them again (shared by
   *     the joins of one reader, across queries of a continuous source), or null
   */
  public PartitionJoin(ResolvedQuery query, boolean prune, RowGroupCounters counters, FooterCache footers) {
    this.footers = footers;
    this.query = query;
    this.prune = prune;
    this.counters = counters;
    List<String> seedKeys = query.seed().keyColumns().stream().map(Field::getName).toList();
    for (DatasetRead dataset : query.datasets()) {
      kinds.add(dataset.keyColumns().stream().map(KeyKind::of).toList());
      keyNames.add(dataset.keyColumns().stream().map(Field::getName).toList());
      seedKeyPositions.add(dataset.keyColumns().stream().mapToInt(f -> seedKeys.indexOf(f.getName())).toArray());
      for (int position : seedKeyPositions.get(seedKeyPositions.size() - 1)) {
        if (position < 0) {
          throw new IllegalStateException("dataset " + dataset.datasetId() + " has key columns " + dataset.keyColumns()
              + " that the seed's " + seedKeys + " do not all include");
        }
      }
    }
    List<Field> output = query.output().getFields();
    sources = new Source[output.size()];
    List<String> partitionColumns = query.partitionColumnNames();
    for (int i = 0; i < output.size(); i++) {
      String name = output.get(i).getName();
      int partition = partitionColumns.indexOf(name);
      if (partition >= 0) {
        sources[i] = new Source(-1, partition);
        continue;
      }
      for (int d = 0; d < query.datasets().size() && sources[i] == null; d++) {
        int column = query.datasets().get(d).readColumnNames().indexOf(name);
        if (column >= 0) {
          sources[i] = new Source(d, column);
        }
      }
      if (sources[i] == null) {
        throw new IllegalStateException("output column " + name + " is read from no dataset of " + query.datasets());
      }
    }
  }

  /** The rows of one partition of {@code group} as columns, sorted by the query's dimension columns. */
  public ResultBatch batch(ObjectStore store, QueryGroup group, GroupPartition partition) throws IOException {
    return join(load(store, group, partition), partition, List.of()).batch();
  }

  /**
   * The rows of a physical partition for every query group at once ({@code partition} holds the
   * files of all groups), each with the values of the {@code partition_by} columns it is grouped
   * by, which must be dimension columns of the query ({@link GroupedPartitions}): the rows of one
   * group are those of its values.
   */
  Grouped batchOfAllGroups(ObjectStore store, GroupPartition partition, List<String> groupColumns)
      throws IOException {
    return join(load(store, null, partition), partition, groupColumns);
  }

  /** Rows of several groups, and per row the values of the columns the groups are formed by. */
  record Grouped(ResultBatch batch, List<TypedVector> groupColumns) {}

  private Grouped join(List<DatasetCells> cells, GroupPartition partition, List<String> groupColumns) {
    DatasetCells seed = cells.get(0);
    int count = seed.cellCount();
    // joined[d][i]: the row of dataset d joined to the i-th result row (-1: none)
    int[][] joined = new int[cells.size()][];
    // the seed's cells are compacted in place by inner joins (the cells serve this batch only)
    joined[0] = seed.cells();
    // the seed's key per result row, when it is one long: merges then read both sides in order
    long[] seedWords = seed.cellWords();
    for (int d = 1; d < cells.size(); d++) {
      joined[d] = match(seed, joined[0], seedWords, count, d, cells.get(d));
      if (query.datasets().get(d).role() != DatasetRole.ENRICHMENT) {
        count = keepMatched(joined, seedWords, d, count);
      }
    }
    List<TypedVector> columns = new ArrayList<>(sources.length);
    for (Source source : sources) {
      columns.add(source.dataset() < 0
          ? constant(partition.partitionValues().get(source.column()), count)
          : cells.get(source.dataset()).column(source.column()).gather(joined[source.dataset()], count));
    }
    List<TypedVector> groupValues = new ArrayList<>(groupColumns.size());
    for (String column : groupColumns) {
      int read = query.seed().readColumnNames().indexOf(column);
      groupValues.add(seed.column(read).gather(joined[0], count));
    }
    return new Grouped(new ResultBatch(query.output(), columns, count), groupValues);
  }

  /** Loads every dataset's files of {@code partition}; with {@code group} null, without its conditions. */
  private List<DatasetCells> load(ObjectStore store, QueryGroup group, GroupPartition partition) throws IOException {
    List<TypedCondition> groupConditions = group == null ? List.of() : groupConditions(group);
    List<DatasetRead> datasets = query.datasets();
    // restricted datasets first: what passes in them filters the others' rows by key (KeyFilter)
    List<Integer> order = new ArrayList<>();
    for (int d = 0; d < datasets.size(); d++) {
      if (datasets.get(d).role() == DatasetRole.RESTRICTED) {
        order.add(d);
      }
    }
    for (int d = 0; d < datasets.size(); d++) {
      if (datasets.get(d).role() != DatasetRole.RESTRICTED) {
        order.add(d);
      }
    }
    DatasetCells[] loadedCells = new DatasetCells[datasets.size()];
    List<KeyFilter> filters = new ArrayList<>();
    for (int d : order) {
      DatasetRead dataset = datasets.get(d);
      List<TypedCondition> conditions = new ArrayList<>(dataset.conditions());
      for (TypedCondition condition : groupConditions) {
        if (dataset.readColumnNames().contains(condition.columnName())) {
          conditions.add(condition);
        }
      }
      List<String> keys = keyNames.get(d);
      List<KeyFilter> applicable = filters.stream().filter(filter -> keys.contains(filter.column())).toList();
      DatasetCells loaded = new DatasetCells(dataset, query.query().semantics());
      new DatasetLoader(dataset, query.query().semantics(), loaded, footers)
          .load(store, partition.filesOf(dataset.datasetId()), conditions, applicable, prune, counters);
      loadedCells[d] = loaded;
      if (dataset.role() == DatasetRole.RESTRICTED && dataset.merge() == RowMerge.CELLS) {
        KeyFilter filter = keyFilter(keys, loaded);
        if (filter != null) {
          filters.add(filter);
        }
      }
    }
    List<DatasetCells> cells = new ArrayList<>(List.of(loadedCells));
    // ranked key columns (strings, binaries, decimals) share their ranks across the datasets
    Map<String, KeyRanks> ranksByColumn = new HashMap<>();
    List<KeyRanks[]> ranks = new ArrayList<>();
    for (int d = 0; d < datasets.size(); d++) {
      List<Field> keyColumns = datasets.get(d).keyColumns();
      KeyRanks[] datasetRanks = new KeyRanks[keyColumns.size()];
      for (int c = 0; c < datasetRanks.length; c++) {
        if (kinds.get(d).get(c) == KeyKind.RANKED) {
          datasetRanks[c] = ranksByColumn.computeIfAbsent(keyColumns.get(c).getName(), name -> new KeyRanks());
        }
      }
      ranks.add(datasetRanks);
      cells.get(d).encodeKeys(kinds.get(d), datasetRanks);
    }
    List<CellKeys> keys = new ArrayList<>(datasets.size());
    for (int d = 0; d < datasets.size(); d++) {
      cells.get(d).resolveRanks(kinds.get(d), ranks.get(d));
      keys.add(cells.get(d).columnKeys());
    }
    packing = datasets.get(0).merge() == RowMerge.NONE ? null : KeyPacking.of(keyNames, keys);
    for (int d = 0; d < datasets.size(); d++) {
      if (packing != null) {
        cells.get(d).usePacked(packing.pack(keys.get(d), keyNames.get(d)));
      }
      cells.get(d).keep(sort);
    }
    return cells;
  }

  /**
   * The filter from the passing rows of a restricted dataset on the key column of its that holds the
   * most distinct passing values (the most selective), or null when none of its key columns can be
   * filtered.
   */
  private static KeyFilter keyFilter(List<String> keys, DatasetCells cells) {
    KeyFilter best = null;
    for (int c = 0; c < keys.size(); c++) {
      KeyFilter filter = KeyFilter.of(keys.get(c), cells.column(c), cells.passes(), cells.rows());
      if (filter != null && (best == null || filter.distinct() > best.distinct())) {
        best = filter;
      }
    }
    return best;
  }

  /**
   * For each of the {@code count} seed rows, the kept row of {@code other} (dataset {@code d}) with
   * its key, or -1.
   */
  private int[] match(DatasetCells seed, int[] seedRows, long[] seedWords, int count, int d, DatasetCells other) {
    int[] positions = seedKeyPositions.get(d);
    // the other's key is the seed's whole key: the seed's kept keys (in order) are the ones to match
    boolean whole = positions.length == keyNames.get(0).size() && isPrefix(positions);
    CellKeys seedKeys = seed.columnKeys().select(positions);
    if (packing != null) {
      seedKeys = whole ? seed.keys() : CellKeys.single(packing.pack(seedKeys, keyNames.get(d)), seedKeys.rows());
    }
    int[] matched = new int[count];
    long[] seedRowWords = seedKeys.singleWords();
    if (other.dense() && seedRowWords != null) {
      // the other's rows are placed by key: look each seed key up (in order when it is the seed's whole key)
      boolean inOrder = seedWords != null && whole;
      for (int i = 0; i < count; i++) {
        matched[i] = other.lookup(inOrder ? seedWords[i] : seedRowWords[seedRows[i]]);
      }
      return matched;
    }
    if (seedWords != null && other.cellWords() != null && whole) {
      // the seed's whole key, one long: both sides' keys are in order already
      mergeWords(seedWords, count, other.cellWords(), other.cells(), other.cellCount(), matched);
      return matched;
    }
    if (isPrefix(positions)) {
      merge(seedKeys, seedRows, count, other, matched);
      return matched;
    }
    // the seed's rows are not in the order of this dataset's key: sort them by it, merge, put back
    int[] byKey = Arrays.copyOf(seedRows, count);
    sort.sort(seedKeys, byKey, count);
    int[] matchedByKey = new int[count];
    merge(seedKeys, byKey, count, other, matchedByKey);
    int[] rowMatch = new int[seedKeys.rows()];
    for (int i = 0; i < count; i++) {
      rowMatch[byKey[i]] = matchedByKey[i];
    }
    for (int i = 0; i < count; i++) {
      matched[i] = rowMatch[seedRows[i]];
    }
    return matched;
  }

  private static boolean isPrefix(int[] positions) {
    for (int i = 0; i < positions.length; i++) {
      if (positions[i] != i) {
        return false;
      }
    }
    return true;
  }

  /** Merges seed rows sorted by {@code seedKeys} with the other dataset's kept rows (sorted, unique). */
  private static void merge(CellKeys seedKeys, int[] seedRows, int count, DatasetCells other, int[] matched) {
    CellKeys otherKeys = other.keys();
    int[] otherRows = other.cells();
    int otherCount = other.cellCount();
    long[] seedRowWords = seedKeys.singleWords();
    long[] otherWords = other.cellWords();
    if (seedRowWords != null && otherWords != null) {
      long[] inOrder = new long[count];
      for (int i = 0; i < count; i++) {
        inOrder[i] = seedRowWords[seedRows[i]];
      }
      mergeWords(inOrder, count, otherWords, otherRows, otherCount, matched);
      return;
    }
    int j = 0;
    for (int i = 0; i < count; i++) {
      int row = seedRows[i];
      int cmp = 1;
      while (j < otherCount && (cmp = otherKeys.compare(otherRows[j], seedKeys, row)) < 0) {
        j++;
      }
      matched[i] = j < otherCount && cmp == 0 ? otherRows[j] : -1;
    }
  }

  /** Merges the seed's keys (in order) with the other's kept keys (in order, unique). */
  private static void mergeWords(long[] seedWords, int count, long[] otherWords, int[] otherRows, int otherCount,
      int[] matched) {
    int j = 0;
    for (int i = 0; i < count; i++) {
      long key = seedWords[i];
      while (j < otherCount && otherWords[j] < key) {
        j++;
      }
      matched[i] = j < otherCount && otherWords[j] == key ? otherRows[j] : -1;
    }
  }

  /** Keeps the result rows that dataset {@code d} matched, in all join arrays; returns the new count. */
  private static int keepMatched(int[][] joined, long[] seedWords, int d, int count) {
    int kept = 0;
    int[] matched = joined[d];
    for (int i = 0; i < count; i++) {
      if (matched[i] >= 0) {
        for (int e = 0; e <= d; e++) {
          joined[e][kept] = joined[e][i];
        }
        if (seedWords != null) {
          seedWords[kept] = seedWords[i];
        }
        kept++;
      }
    }
    return kept;
  }

  /** A column of one partition value, of the vector kind its value needs. */
  private static TypedVector constant(Object value, int count) {
    if (value instanceof Long number) {
      LongVector vector = new LongVector(LongType.INTEGER, count);
      for (int i = 0; i < count; i++) {
        vector.append(number);
      }
      return vector;
    }
    if (value instanceof Double number) {
      DoubleVector vector = new DoubleVector(count);
      for (int i = 0; i < count; i++) {
        vector.append(number);
      }
      return vector;
    }
    ObjectVector vector = new ObjectVector(count);
    for (int i = 0; i < count; i++) {
      vector.append(value);
    }
    return vector;
  }

  /** The values of {@code group}'s key for the {@code partition_by} columns {@code columns}. */
  List<Object> groupValues(QueryGroup group, List<String> columns) {
    List<String> partitionBy = query.partitionBy().stream().map(Field::getName).toList();
    List<Object> values = new ArrayList<>(columns.size());
    for (String column : columns) {
      values.add(group.key().get(partitionBy.indexOf(column)));
    }
    return values;
  }

  /** {@code column == value} for each {@code partition_by} column that is not a partition column. */
  private List<TypedCondition> groupConditions(QueryGroup group) {
    List<TypedCondition> conditions = new ArrayList<>();
    List<Field> partitionBy = query.partitionBy();
    for (int i = 0; i < partitionBy.size(); i++) {
      Field column = partitionBy.get(i);
      if (!query.partitionColumnNames().contains(column.getName())) {
        conditions.add(TypedCondition.resolve(Condition.eq(column.getName(), group.key().get(i)), column,
            query.target().describe(), query.query().semantics()));
      }
    }
    return conditions;
  }
}
