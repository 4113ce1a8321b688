package io.ktk.flink.cli;

import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A command that works on a store: opens it, runs, closes it. Subclasses implement {@link
 * #run(ObjectStore)} and return the exit code; they throw for errors, which {@link Ktk} reports.
 */
abstract class StoreCommand implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Mixin StoreMixin store;
  @ParentCommand Ktk ktk;
  @Spec CommandSpec spec;

  @Override
  public final Integer call() throws Exception {
    checkUsage();
    try (ObjectStore opened = store.open()) {
      return run(opened);
    }
  }

  /** Checks arguments that picocli cannot; throws {@link picocli.CommandLine.ParameterException}. */
  void checkUsage() {}

  abstract int run(ObjectStore store) throws Exception;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  Terminal terminal() {
    return ktk.terminal();
  }

  Progress progress(String label, long total) {
    return terminal().progress(err(), label, total);
  }
}
