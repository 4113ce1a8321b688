package io.ktk.flink.cli;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;

/**
 * {@code ktk adopt}: takes over, as a version of the log, what another writer (plateau) changed in
 * a dataset's published metadata, so that this project's readers see it. Every writer of this
 * project does the same before it commits; this command is for datasets no job writes to.
 */
@Command(
    name = "adopt",
    sortOptions = false,
    description = {
      "Takes over what plateau changed in the published metadata of a dataset or cube into its log.",
      "plateau appends by rewriting the metadata JSON. This project's readers read the log, so they see "
          + "plateau's files once a writer of this project has adopted them: every commit does that first (a "
          + "running job within one checkpoint). For a dataset nobody writes to, run this command. A dataset "
          + "without a log (written by plateau only) is adopted as version 0."
    },
    footer = {"", "Example:", "  ktk adopt --store file:///data --dataset events"})
final class AdoptCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    PrintWriter out = out();
    for (String uuid : target.uuids(store)) {
      CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
      long adopted = log.adoptForeignChanges();
      out.println("dataset " + uuid + ": " + (adopted >= 0
          ? "adopted another writer's change as version " + adopted
          : "nothing to adopt (version " + log.state().version() + ")"));
    }
    return Ktk.OK;
  }
}
