package io.ktk.flink.source.table;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.rowdata.RowDataFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;

/**
 * The scan of a cube table ({@link CubeTable}) or a plain dataset table ({@link DatasetTable}): a
 * {@link io.ktk.flink.source.KartothekSource} (or {@link io.ktk.flink.source.KartothekDatasetSource})
 * at the versions pinned when the query was planned, running the query that the pushed-down parts
 * of the SQL query form.
 *
 * <ul>
 *   <li>Projection (top-level columns): the query's {@code columns}; the dimensionality stays the
 *       table's, so leaving out a dimension column never merges rows.
 *   <li>Filters: translated by {@link FilterTranslation}; those whose conditions give exactly SQL's
 *       rows are accepted, the others (floats, and what conditions cannot say) stay with Flink,
 *       pruning where a superset can be pushed.
 *   <li>Partitions (bounded scans of tables declared {@code PARTITIONED BY} the cube's or dataset's
 *       partition columns, {@link PartitionPruningTableSource}): Flink prunes the seed's (or the
 *       dataset's) partitions itself; the kept ones become {@code in} conditions on the partition
 *       columns, and where those admit more partitions (several partition columns) the rows of the
 *       others are dropped after reading. A continuous scan takes conditions on partition columns
 *       as filters instead: a list of the partitions that exist when the query is planned would
 *       leave out those that later commits create.
 *   <li>Changelog: the continuous scan of a dataset with a primary key is an upsert changelog keyed
 *       by it; filters on other columns are left to Flink then (see {@link #applyFilters}).
 *   <li>Limit: each reader of a bounded scan stops reading once it emitted that many rows (the
 *       splits it gets then finish unread); a dataset table moreover plans only the files that hold
 *       enough rows by the log's counts, when every condition is on partition columns. Flink still
 *       cuts the rows to the limit.
 * </ul>
 */
class KartothekTableSource implements ScanTableSource, SupportsProjectionPushDown, SupportsFilterPushDown,
    SupportsLimitPushDown {
  final KartothekTable table;
  private final DataType physicalType;
  private int[] projection;
  private DataType producedType;
  private List<Condition> conditions = new ArrayList<>();
  private Set<List<Object>> partitions;
  private long limit = -1;

  KartothekTableSource(KartothekTable table, DataType physicalType) {
    this.table = table;
    this.physicalType = physicalType;
    this.projection = null;
    this.producedType = physicalType;
  }

  /** A copy of {@code other}, for {@link #copy()}. */
  KartothekTableSource(KartothekTableSource other) {
    this(other.table, other.physicalType);
    this.projection = other.projection == null ? null : other.projection.clone();
    this.producedType = other.producedType;
    this.conditions = new ArrayList<>(other.conditions);
    this.partitions = other.partitions == null ? null : new HashSet<>(other.partitions);
    this.limit = other.limit;
  }

  /**
   * {@code LIMIT n}: Flink still cuts the rows to n; each reader stops reading after n rows, and a
   * dataset table's scan plans only as many files as hold n rows by the log's counts, where no
   * row-level condition can drop rows.
   */
  @Override
  public void applyLimit(long limit) {
    this.limit = limit;
  }

  /**
   * Insert-only, but for the continuous scan of a dataset with a primary key: an upsert changelog
   * keyed by it ({@code +I}, {@code +U}, {@code -D}), whose deletes carry the key's columns only.
   */
  @Override
  public ChangelogMode getChangelogMode() {
    return table.changelogKey().isEmpty() ? ChangelogMode.insertOnly() : ChangelogMode.upsert(true);
  }

  @Override
  public DynamicTableSource copy() {
    return new KartothekTableSource(this);
  }

  @Override
  public String asSummaryString() {
    return "Kartothek";
  }

  @Override
  public boolean supportsNestedProjection() {
    return false;
  }

  @Override
  public void applyProjection(int[][] projectedFields, DataType producedDataType) {
    int[] selected = new int[projectedFields.length];
    for (int i = 0; i < projectedFields.length; i++) {
      selected[i] = projection == null ? projectedFields[i][0] : projection[projectedFields[i][0]];
    }
    this.projection = selected;
    this.producedType = producedDataType;
  }

  @Override
  public Result applyFilters(List<ResolvedExpression> filters) {
    FilterTranslation translation = new FilterTranslation(table.columnsByName());
    List<ResolvedExpression> accepted = new ArrayList<>();
    List<ResolvedExpression> remaining = new ArrayList<>();
    for (ResolvedExpression filter : filters) {
      FilterTranslation.Translated translated = translation.translate(filter);
      if (translated != null && !table.changelogKey().isEmpty()
          && !translated.conditions().stream().allMatch(c -> table.changelogKey().contains(c.column()))) {
        // An upsert changelog deletes a key whose new row fails a pushed condition, with a -D that holds
        // the key alone: a filter Flink applied to it too would drop that -D. So conditions on other
        // columns than the key's stay with Flink, which applies them to the normalized changelog.
        translated = null;
      }
      if (translated != null) {
        conditions.addAll(translated.conditions());
      }
      (translated != null && translated.exact() ? accepted : remaining).add(filter);
    }
    return Result.of(accepted, remaining);
  }

  /**
   * Keeps only the rows of {@code kept} partitions (values in the order of the table's partition
   * columns), what Flink's partition pruning left ({@link PartitionPruningTableSource}).
   */
  void prunePartitions(Set<List<Object>> kept) {
    this.partitions = kept;
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    List<Field> output = new ArrayList<>();
    if (projection == null) {
      output.addAll(table.columns());
    } else {
      Arrays.stream(projection).forEach(i -> output.add(table.columns().get(i)));
    }
    List<LogicalType> types = producedType.getLogicalType().getChildren();
    TypeInformation<RowData> typeInfo = context.createTypeInformation(producedType);

    List<Condition> where = new ArrayList<>(conditions);
    boolean filterPartitions = false;
    if (partitions != null) {
      if (partitions.isEmpty()) {
        return provider(true, (env, uid) -> env.fromData(List.<RowData>of(), typeInfo));
      }
      List<Field> partitionColumns = table.partitionColumns();
      List<Set<Object>> admitted = new ArrayList<>();
      for (int i = 0; i < partitionColumns.size(); i++) {
        Set<Object> values = new LinkedHashSet<>();
        for (List<Object> partition : partitions) {
          values.add(partition.get(i));
        }
        admitted.add(values);
        where.add(Condition.in(partitionColumns.get(i).getName(), new ArrayList<>(values)));
      }
      long admittedPartitions = table.partitions().stream().filter(values -> {
        for (int i = 0; i < values.size(); i++) {
          if (!admitted.get(i).contains(values.get(i))) {
            return false;
          }
        }
        return true;
      }).count();
      filterPartitions = admittedPartitions > partitions.size();
    }

    Set<String> queryColumns = new LinkedHashSet<>();
    output.forEach(column -> queryColumns.add(column.getName()));
    if (filterPartitions) {
      table.partitionColumns().forEach(column -> queryColumns.add(column.getName()));
    }
    queryColumns.addAll(table.changelogKey()); // a -D names its key by them
    if (queryColumns.isEmpty()) {
      // e.g. COUNT(*): any column gives the rows; a dataset's partition column needs no file read (logged row counts)
      queryColumns.add((table.partitionColumns().isEmpty() ? table.columns() : table.partitionColumns()).get(0)
          .getName());
    }
    List<String> names = new ArrayList<>(queryColumns);
    int[] positions = output.stream().mapToInt(column -> names.indexOf(column.getName())).toArray();
    String name = table.describe();
    boolean bounded = table.bounded();
    if (!filterPartitions) {
      // the source's records are the table's rows, made from the column vectors (no Row in between)
      Source<RowData, ?, ?> source = table.source(names, where, limit, RowDataFormat.of(types, positions), typeInfo);
      return provider(bounded, (env, uid) -> {
        DataStreamSource<RowData> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), name, typeInfo);
        uid.ifPresent(rows::uid);
        return rows;
      });
    }
    Source<Row, ?, ?> source = table.source(names, where, -1);
    int[] partitionPositions =
        table.partitionColumns().stream().mapToInt(column -> names.indexOf(column.getName())).toArray();
    RowDataConversion conversion = new RowDataConversion(positions, types, partitionPositions, new HashSet<>(partitions));
    return provider(bounded, (env, uid) -> {
      SingleOutputStreamOperator<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), name);
      uid.ifPresent(rows::uid);
      return rows.flatMap(conversion, typeInfo).name(name + " to RowData");
    });
  }

  /** How the scan's stream is made. */
  private interface StreamFactory {
    DataStream<RowData> create(StreamExecutionEnvironment env, Optional<String> uid);
  }

  private static DataStreamScanProvider provider(boolean bounded, StreamFactory factory) {
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(ProviderContext context, StreamExecutionEnvironment env) {
        return factory.create(env, context.generateUid("kartothek-source"));
      }

      @Override
      public boolean isBounded() {
        return bounded;
      }
    };
  }

  @Override
  public String toString() {
    return "KartothekTableSource{" + table.name() + ", " + table.describe() + ", where=" + conditions + "}";
  }
}
