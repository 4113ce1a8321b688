package io.ktk.flink.source.reader;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.DatasetRole;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.rowformat.RowBuffer;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Joins the datasets of one partition of a query group into result rows (the seed's
 * "intra-partition join"): the seed's kept keys are the cells; each restricted dataset must have a
 * kept row for a cell's key (inner join), each enrichment adds its row's columns or nulls when it
 * has none (left join; null, never NaN, whatever the column's type). Rows come sorted by the query's
 * dimension columns.
 *
 * <p>A dataset is joined on its key columns (its dimension columns, all among the query's); their
 * values are taken from the seed's row, so equal keys mean equal encodings.
 */
final class PartitionJoin {
  /** Where an output column comes from: a partition value, or a read column of a dataset. */
  private record Source(int dataset, int column) {}

  private final ResolvedQuery query;
  private final List<KeyEncoder> encoders = new ArrayList<>();
  /** Per dataset after the seed, the positions of its key columns in the seed's read columns. */
  private final List<int[]> lookupPositions = new ArrayList<>();
  private final Source[] sources;
  private final boolean prune;
  private final RowGroupCounters counters;

  /**
   * @param prune whether row groups are pruned by their statistics ({@link RowGroupPruning})
   * @param counters counts the row groups read and pruned
   */
  PartitionJoin(ResolvedQuery query, boolean prune, RowGroupCounters counters) {
    this.query = query;
    this.prune = prune;
    this.counters = counters;
    DatasetRead seed = query.seed();
    List<String> seedColumns = seed.readColumnNames();
    for (DatasetRead dataset : query.datasets()) {
      encoders.add(new KeyEncoder(dataset.keyColumns()));
      lookupPositions.add(dataset.keyColumns().stream().mapToInt(f -> seedColumns.indexOf(f.getName())).toArray());
    }
    List<Field> output = query.output().getFields();
    sources = new Source[output.size()];
    List<String> partitionColumns = query.cube().partitionColumns();
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

  /** The rows of one partition of {@code group}, sorted by the query's dimension columns. */
  List<List<Object>> rows(ObjectStore store, QueryGroup group, GroupPartition partition) throws IOException {
    List<TypedCondition> groupConditions = groupConditions(group);
    List<DatasetRead> datasets = query.datasets();
    List<DatasetCells> cells = new ArrayList<>(datasets.size());
    for (int d = 0; d < datasets.size(); d++) {
      DatasetRead dataset = datasets.get(d);
      List<TypedCondition> conditions = new ArrayList<>(dataset.conditions());
      for (TypedCondition condition : groupConditions) {
        if (dataset.readColumnNames().contains(condition.columnName())) {
          conditions.add(condition);
        }
      }
      DatasetCells loaded = new DatasetCells(dataset, encoders.get(d));
      loaded.load(store, partition.filesOf(dataset.datasetId()), conditions, prune, counters);
      cells.add(loaded);
    }

    DatasetCells seed = cells.get(0);
    RowBuffer key = new RowBuffer();
    Object[][] joined = new Object[datasets.size()][];
    List<List<Object>> rows = new ArrayList<>();
    for (int id : seed.sortedIds()) {
      joined[0] = seed.row(id);
      boolean keep = true;
      for (int d = 1; d < datasets.size() && keep; d++) {
        encoders.get(d).encode(joined[0], lookupPositions.get(d), key);
        joined[d] = cells.get(d).lookup(key);
        keep = joined[d] != null || datasets.get(d).role() == DatasetRole.ENRICHMENT;
      }
      if (!keep) {
        continue;
      }
      Object[] row = new Object[sources.length];
      for (int i = 0; i < sources.length; i++) {
        Source source = sources[i];
        if (source.dataset() < 0) {
          row[i] = partition.partitionValues().get(source.column());
        } else {
          Object[] from = joined[source.dataset()];
          row[i] = from == null ? null : from[source.column()];
        }
      }
      rows.add(Collections.unmodifiableList(Arrays.asList(row)));
    }
    return rows;
  }

  /** {@code column == value} for each {@code partition_by} column that is not a partition column. */
  private List<TypedCondition> groupConditions(QueryGroup group) {
    List<TypedCondition> conditions = new ArrayList<>();
    List<Field> partitionBy = query.partitionBy();
    for (int i = 0; i < partitionBy.size(); i++) {
      Field column = partitionBy.get(i);
      if (!query.cube().partitionColumns().contains(column.getName())) {
        conditions.add(TypedCondition.resolve(Condition.eq(column.getName(), group.key().get(i)), column,
            "cube '" + query.cube().name() + "'"));
      }
    }
    return conditions;
  }
}
