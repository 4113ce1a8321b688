package io.ktk.flink.cli;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.ConditionParser;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.ValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code ktk read}: the rows of the latest version of a dataset, as CSV or JSON lines. */
@Command(
    name = "read",
    sortOptions = false,
    description = {
      "Prints the rows of the latest version of a dataset.",
      "Rows come partition by partition, in the order of the partition values, then file by file and as "
          + "stored. Columns come in the order of --columns; by default partition keys first, then the others "
          + "by name."
    },
    footer = {
      "",
      "--where takes conditions joined by 'and', in the language of ktk query: col == 1, col != 'x', "
          + "col < 1.5, col <= 2, col > 0, col >= 0, col in (1, 2), intervals 0 <= col < 10. Literals: numbers, nan, inf, true, false, 'text', x'0aff' (bytes), "
          + "'2024-01-31', '2024-01-31 12:00:00' (timestamps with a zone need Z or an offset). A comparison "
          + "with a null value is unknown and drops the row. Conditions on partition columns skip whole "
          + "partitions, == and in on indexed columns skip files, before anything is read.",
      "",
      "CSV: RFC 4180, with a header row and CRLF line ends; a null is an empty field, an empty string is "
          + "\"\". JSON lines: one object per row, null for nulls. Both: floats as Python prints them, NaN and "
          + "infinities as \"NaN\", \"Infinity\", \"-Infinity\"; dates and timestamps in ISO-8601 (zoned ones in "
          + "UTC, with Z); binary in base64; decimals exact (strings in JSON); lists and structs as JSON.",
      "",
      "Example:",
      "  ktk read --store file:///data --dataset events --columns day,c \\",
      "      --where \"day >= '2024-01-02' and c in (1, 2)\" --format jsonl"
    })
final class ReadCommand extends StoreCommand {
  /** How many rows are written between checks that stdout is still open (e.g. not closed by head). */
  private static final int CHECK_INTERVAL = 4096;

  @Option(names = "--dataset", required = true, paramLabel = "UUID", description = "The dataset's uuid.")
  String dataset;

  @Option(names = "--columns", split = ",", paramLabel = "COL", description = "Columns to print, in this order.")
  List<String> columns;

  @Option(names = "--where", paramLabel = "EXPR", description = "Only rows that satisfy the condition (see below).")
  String where;

  @Option(names = "--format", paramLabel = "csv|jsonl", defaultValue = "csv",
      description = "Output format: csv (default) or jsonl.")
  RowWriter.OutputFormat format;

  @Override
  void checkUsage() {
    if (!DatasetKeys.isValidUuid(dataset)) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--dataset': '" + dataset
          + "' is not a dataset uuid (allowed: A-Z a-z 0-9 + - _)");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, dataset);
    Schema schema = snapshot.schema();
    List<Field> output = columns == null
        ? CommonMetadataFile.layout(schema, snapshot.partitionKeys().stream().map(Field::getName).toList()).getFields()
        : select(schema, columns);
    List<TypedCondition> conditions = conditions(schema);
    DatasetScan scan = new DatasetScan(store, snapshot, output, conditions);

    PrintWriter out = out();
    RowWriter writer = RowWriter.of(format, out, output);
    long[] written = {0};
    try (Progress progress = progress("reading files", scan.fileCount())) {
      scan.forEachRow(row -> {
        writer.write(row);
        if (++written[0] % CHECK_INTERVAL == 0) {
          writer.flush();
          return !out.checkError(); // the reader went away: stop quietly
        }
        return true;
      }, progress);
    }
    writer.flush();
    return Ktk.OK;
  }

  /** The {@code --where} conditions typed by the dataset's columns, as a cube query types them. */
  private List<TypedCondition> conditions(Schema schema) {
    String subject = "dataset '" + dataset + "'";
    List<TypedCondition> typed = new ArrayList<>();
    for (Condition condition : ConditionParser.parse(where)) {
      Field column = schema.getFields().stream().filter(f -> f.getName().equals(condition.column())).findFirst()
          .orElseThrow(() -> new InvalidQueryException("Cannot query " + subject + ": condition `" + condition
              + "` is on column '" + condition.column() + "', which the dataset does not have (columns: "
              + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")) + ")"));
      typed.add(TypedCondition.resolve(condition, column, subject));
    }
    return typed;
  }

  private List<Field> select(Schema schema, List<String> names) {
    List<Field> fields = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      Field field = schema.getFields().stream().filter(f -> f.getName().equals(name)).findFirst()
          .orElseThrow(() -> new ValidationException("Cannot read column '" + name + "' of dataset '" + dataset
              + "': it has no such column (columns: "
              + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")) + ")"));
      if (!seen.add(name)) {
        throw new ParameterException(spec.commandLine(), "Invalid value for option '--columns': column '" + name
            + "' is given twice");
      }
      fields.add(field);
    }
    return fields;
  }
}
