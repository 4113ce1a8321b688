package io.ktk.flink.cli;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code ktk read}: the rows of the latest version of a dataset, as CSV or JSON lines. */
@Command(
    name = "read",
    sortOptions = false,
    description = {
      "Prints the rows of the latest version of a dataset (or of an earlier one: --version, --as-of).",
      "Rows come partition by partition, in the order of the partition values, then file by file and as "
          + "stored; a dataset with a primary key gives the last-written row of each key that is not deleted, "
          + "sorted by key within a partition. Columns come in the order of --columns; by default partition keys first, then the others "
          + "by name."
    },
    footer = {
      "",
      "--where takes conditions joined by 'and', in the language of ktk query: col == 1, col != 'x', "
          + "col < 1.5, col <= 2, col > 0, col >= 0, col in (1, 2), intervals 0 <= col < 10. Literals: numbers, nan, inf, true, false, 'text', x'0aff' (bytes), "
          + "'2024-01-31', '2024-01-31 12:00:00' (timestamps with a zone need Z or an offset). A comparison "
          + "with a null value is unknown and drops the row. Conditions on partition columns skip whole "
          + "partitions, == and in on indexed columns skip files, before anything is read; row groups whose "
          + "statistics rule out every match are skipped.",
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

  @Option(names = "--version", paramLabel = "N", description = "Read version N of the dataset's commit log instead "
      + "of the latest (time travel).")
  Long version;

  @Option(names = "--as-of", paramLabel = "TIME", description = "Read the version that was the latest at TIME, an "
      + "ISO-8601 instant such as 2024-05-01T10:00:00Z (time travel).")
  String asOf;

  @Override
  void checkUsage() {
    if (!DatasetKeys.isValidUuid(dataset)) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--dataset': '" + dataset
          + "' is not a dataset uuid (allowed: A-Z a-z 0-9 + - _)");
    }
    if (version != null && asOf != null) {
      throw new ParameterException(spec.commandLine(), "Give at most one of --version and --as-of");
    }
    if (version != null && version < 0) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--version': " + version
          + " (versions count from 0)");
    }
    if (asOf != null) {
      asOfInstant();
    }
  }

  private Instant asOfInstant() {
    try {
      return OffsetDateTime.parse(asOf.trim()).toInstant();
    } catch (DateTimeParseException e) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--as-of': '" + asOf
          + "' is not an ISO-8601 instant with its offset, e.g. 2024-05-01T10:00:00Z");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    PlainDatasetSnapshot snapshot = new PlainDatasetSnapshot(version != null
        ? DatasetSnapshot.at(store, dataset, version)
        : asOf != null ? DatasetSnapshot.asOf(store, dataset, asOfInstant()) : DatasetSnapshot.latest(store, dataset));
    if (columns != null) {
      Set<String> seen = new HashSet<>();
      for (String name : columns) {
        if (!seen.add(name)) {
          throw new ParameterException(spec.commandLine(), "Invalid value for option '--columns': column '" + name
              + "' is given twice");
        }
      }
    }
    DatasetQuery query = DatasetQuery.builder().columns(columns == null ? List.of() : columns).where(where).build();
    QueryPlan plan = snapshot.plan(query.toCubeQuery());
    // files (partitions of a dataset with a key) are read ahead on all cores; rows still come in order
    CubeReader reader = new CubeReader(store, plan, true, Runtime.getRuntime().availableProcessors());

    PrintWriter out = out();
    RowWriter writer = RowWriter.of(format, out, reader.schema().getFields());
    long written = 0;
    long batches = plan.groups().stream().mapToLong(group -> group.partitions().size()).sum();
    boolean byFile = plan.query().seed().merge() == RowMerge.NONE;
    try (Progress progress = progress(byFile ? "reading files" : "reading partitions", batches)) {
      Iterator<ResultBatch> results = reader.batches();
      while (results.hasNext()) {
        ResultBatch batch = results.next();
        for (int row = 0; row < batch.rowCount(); row++) {
          writer.write(batch.values(row));
          if (++written % CHECK_INTERVAL == 0) {
            writer.flush();
            if (out.checkError()) {
              return Ktk.OK; // the reader went away (e.g. head): stop quietly
            }
          }
        }
        progress.step();
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      writer.flush(); // the rows so far go out also when a file cannot be read
    }
    return Ktk.OK;
  }
}
