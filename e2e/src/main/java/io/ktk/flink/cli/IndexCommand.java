package io.ktk.flink.cli;

import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code ktk index}: builds a secondary index over a dataset's existing files; see {@link IndexBuilder}. */
@Command(
    name = "index",
    sortOptions = false,
    description = "Builds a secondary index on a column over the existing files of a dataset, commits it and "
        + "publishes the metadata with the new index.",
    footer = {"", "Example:", "  ktk index --store file:///data --dataset events --on customer"})
final class IndexCommand extends StoreCommand {
  @Option(names = "--dataset", required = true, paramLabel = "UUID", description = "The dataset's uuid.")
  String dataset;

  @Option(names = "--on", required = true, paramLabel = "COL", description = "The column to index.")
  String column;

  @Override
  void checkUsage() {
    if (!DatasetKeys.isValidUuid(dataset)) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--dataset': '" + dataset
          + "' is not a dataset uuid (allowed: A-Z a-z 0-9 + - _)");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    IndexBuilder.Built built = new IndexBuilder(store, dataset, column).build(files -> progress("reading files", files));
    out().println("dataset " + dataset + ": indexed column " + column + " (" + built.values() + " distinct values in "
        + built.files() + " files) at version " + built.version() + "; published version " + built.published());
    return Ktk.OK;
  }
}
