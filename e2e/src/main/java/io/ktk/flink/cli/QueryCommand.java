package io.ktk.flink.cli;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ktk query}: a cube query (Kartothek's {@code query_cube}) over the latest version of every
 * dataset of a cube, as CSV, JSON lines or an aligned text table. The query is checked and planned
 * before any data file is read, so a mistake in it (an unknown column, a literal of the wrong type)
 * is reported without I/O beyond the metadata; rows are then streamed partition by partition.
 */
@Command(
    name = "query",
    sortOptions = false,
    description = {
      "Prints the result of a cube query over the latest version of a cube's datasets.",
      "Each row is a cell of the seed dataset that satisfies every condition, joined with the other datasets' "
          + "values for it (null where a dataset has none). Rows come group by group (by the --partition-by values, "
          + "else by partition values), within a group partition by partition (by partition values), within a "
          + "partition sorted by the dimension columns. Columns come in the order of "
          + "--columns; by default the partition columns, the dimension columns, the --partition-by columns, then "
          + "the payload columns by name."
    },
    footer = {
      "",
      "--where takes conditions joined by 'and': col == 1, col != 'x', col < 1.5, col <= 2, col > 0, col >= 0, "
          + "col in (1, 2), 0 <= col < 10; literals ('text', '2024-01-31', numbers, true, "
          + "false) are typed by their column; null is refused. A comparison with a null value is unknown and drops "
          + "the cell (!= too); NaN is a value, equal to NaN. Conditions on partition columns and on indexed columns prune "
          + "partitions before anything is read.",
      "",
      "--kartothek-semantics gives exactly the rows of Kartothek 5.3's query_cube, for comparing during a "
          + "migration: null and NaN are one missing value, which != keeps and every other operator drops (nan is "
          + "refused as a literal); rows are filtered before the last row of a cell is taken; --columns are "
          + "Kartothek's payload_columns (the result adds the dimension, --partition-by and partition columns and "
          + "sorts the columns by name); --dimension-columns default to all; --datasets must name the seed. "
          + "The order of the rows stays this tool's. docs/cube-query.md lists every difference with an example.",
      "",
      "CSV: RFC 4180, with a header row and CRLF line ends; a null is an empty field. JSON lines: one object per "
          + "row, null for nulls. Values are written as 'ktk read' writes them. table: aligned columns with a "
          + "header, numbers right-aligned, nulls blank (the whole result is held in memory to align it).",
      "",
      "Example:",
      "  ktk query --store file:///data --cube sales --columns day,store,revenue \\",
      "      --where \"day >= '2024-01-02' and store in (1, 2)\" \\",
      "      --partition-by day --format table"
    })
final class QueryCommand extends StoreCommand {
  /** How many rows are written between checks that stdout is still open (e.g. not closed by head). */
  private static final int CHECK_INTERVAL = 4096;

  /** The formats of {@code --format}: those of {@code ktk read} and a text table. */
  enum Format {
    CSV,
    JSONL,
    TABLE
  }

  @Option(names = "--cube", required = true, paramLabel = "NAME", description = "The cube's name.")
  String cube;

  @Option(names = "--columns", split = ",", paramLabel = "COL", description = "Columns to print, in this order (with --kartothek-semantics: Kartothek's payload_columns).")
  List<String> columns;

  @Option(names = "--where", paramLabel = "EXPR", description = "Only cells that satisfy the condition (see below).")
  String where;

  @Option(names = "--partition-by", split = ",", paramLabel = "COL",
      description = "Group the rows by the values of these columns (each a partition or indexed column).")
  List<String> partitionBy;

  @Option(names = "--dimension-columns", split = ",", paramLabel = "COL",
      description = "The result's dimensionality: some of the cube's dimension columns (fewer is a projection, one row "
          + "per distinct value combination of the seed); default: those in --columns, else all (with "
          + "--kartothek-semantics: all).")
  List<String> dimensionColumns;

  @Option(names = "--datasets", split = ",", paramLabel = "ID",
      description = "Use only these datasets of the cube (the seed is always used); default: all.")
  List<String> datasets;

  @Option(names = "--kartothek-semantics",
      description = "Mean what Kartothek 5.3's query_cube means and return exactly its rows (see below).")
  boolean kartothekSemantics;

  @Option(names = "--limit", paramLabel = "N",
      description = "Print at most N rows (the first ones, in the query's order); reading stops there.")
  Long limit;

  @Option(names = "--format", paramLabel = "csv|jsonl|table", defaultValue = "csv",
      description = "Output format: csv (default), jsonl or table.")
  Format format;

  @Override
  void checkUsage() {
    if (!CubeNames.isValidName(cube)) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--cube': '" + cube
          + "' is not a cube name (allowed: A-Z a-z 0-9 + - _, no '++', no leading or trailing '+')");
    }
    if (limit != null && limit < 0) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--limit': " + limit
          + " is negative");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    CubeQuery.Builder builder = CubeQuery.builder();
    if (where != null) {
      builder.where(where);
    }
    if (columns != null) {
      builder.columns(columns);
    }
    if (partitionBy != null) {
      builder.partitionBy(partitionBy);
    }
    if (dimensionColumns != null) {
      builder.dimensionColumns(dimensionColumns);
    }
    if (datasets != null) {
      builder.datasets(datasets);
    }
    if (kartothekSemantics) {
      builder.kartothekSemantics();
    }
    CubeQuery query = builder.build();
    QueryPlan plan = CubeSnapshot.latest(store, cube).plan(query);
    // partitions are read ahead on all cores; the rows still come in the plan's order
    CubeReader reader = new CubeReader(store, plan, true, Runtime.getRuntime().availableProcessors());
    List<Field> output = reader.schema().getFields();

    PrintWriter out = out();
    RowSink sink = format == Format.TABLE ? new TableSink(output) : new StreamSink(out, output);
    long partitions = plan.groups().stream().mapToLong(group -> group.partitions().size()).sum();
    long left = limit == null ? Long.MAX_VALUE : limit;
    try (Progress progress = progress("reading partitions", partitions)) {
      Iterator<ResultBatch> batches = reader.batches();
      read:
      while (batches.hasNext()) {
        ResultBatch batch = batches.next();
        for (int row = 0; row < batch.rowCount(); row++) {
          if (left-- <= 0) {
            break read;
          }
          if (!sink.write(batch, row)) {
            break read; // the reader of stdout went away: stop quietly
          }
        }
        progress.step();
      }
    } catch (UncheckedIOException e) {
      sink.abandon();
      throw e.getCause();
    } catch (Exception | Error e) {
      sink.abandon();
      throw e;
    }
    sink.finish(out);
    return Ktk.OK;
  }

  /** Where the rows go, one at a time. */
  private interface RowSink {
    /** Takes row {@code row} of the batch; false when nobody reads the output any more. */
    boolean write(ResultBatch batch, int row) throws IOException;

    void finish(PrintWriter out) throws IOException;

    /** The query failed: puts out what can stand on its own (the rows so far of a stream). */
    default void abandon() throws IOException {}
  }

  /** CSV or JSON lines, written as the rows come. */
  private final class StreamSink implements RowSink {
    private final PrintWriter out;
    private final RowWriter writer;
    private TypedVector[] columns = new TypedVector[0];
    private ResultBatch columnsOf;
    private long written;

    StreamSink(PrintWriter out, List<Field> fields) throws IOException {
      this.out = out;
      this.writer = RowWriter.of(format == Format.JSONL ? RowWriter.OutputFormat.JSONL : RowWriter.OutputFormat.CSV,
          out, fields);
    }

    @Override
    public boolean write(ResultBatch batch, int row) throws IOException {
      if (batch != columnsOf) {
        columns = new TypedVector[batch.schema().getFields().size()];
        for (int c = 0; c < columns.length; c++) {
          columns[c] = batch.column(c);
        }
        columnsOf = batch;
      }
      writer.write(columns, row);
      if (++written % CHECK_INTERVAL == 0) {
        writer.flush();
        return !out.checkError();
      }
      return true;
    }

    @Override
    public void finish(PrintWriter out) throws IOException {
      writer.flush();
    }

    @Override
    public void abandon() throws IOException {
      writer.flush();
    }
  }

  /** An aligned table: a header of column names, then the rows; needs all rows to know the widths. */
  private static final class TableSink implements RowSink {
    private final List<Field> fields;
    private final TextTable table;

    TableSink(List<Field> fields) {
      this.fields = fields;
      boolean[] numeric = new boolean[fields.size()];
      for (int i = 0; i < numeric.length; i++) {
        numeric[i] = isNumeric(fields.get(i).getType());
      }
      this.table = new TextTable(numeric);
      table.add(fields.stream().map(Field::getName).toArray());
    }

    @Override
    public boolean write(ResultBatch batch, int index) {
      Object[] row = batch.values(index);
      Object[] cells = new Object[row.length];
      for (int i = 0; i < row.length; i++) {
        cells[i] = row[i] == null ? null : ValueFormat.text(fields.get(i), row[i]);
      }
      table.add(cells);
      return true;
    }

    @Override
    public void finish(PrintWriter out) {
      table.print(out, "");
      out.flush();
    }

    private static boolean isNumeric(ArrowType type) {
      return type instanceof ArrowType.Int || type instanceof ArrowType.FloatingPoint
          || type instanceof ArrowType.Decimal;
    }
  }
}
