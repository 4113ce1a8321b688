package io.ktk.flink.cli;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.LogExpiry;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ktk expire}: bounds the commit log of a dataset (or each dataset of a cube). */
@Command(
    name = "expire",
    sortOptions = false,
    description = {
      "Expires the versions of a dataset or cube older than --older-than, keeping at least the last --retain-last.",
      "Commits a version that marks them expired (reading one of them then fails with a clear error), writes a "
          + "snapshot of the oldest version kept, and deletes the log entries and snapshots before it and the "
          + "index files of earlier published views. Data files that only expired versions held become garbage: "
          + "'ktk gc' deletes them once they are older than its safety age."
    },
    footer = {"", "Example:", "  ktk expire --store file:///data --cube sales --older-than 7d --retain-last 10"})
final class ExpireCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--older-than", paramLabel = "DURATION", converter = DurationConverter.class,
      defaultValue = "7d", description = "Expire versions older than this: 30m, 12h, 7d or ISO-8601 (default: 7d).")
  Duration olderThan;

  @Option(names = "--retain-last", paramLabel = "N", defaultValue = "" + LogExpiry.DEFAULT_RETAIN_LAST,
      description = "Always keep the last N versions, whatever their age (default: ${DEFAULT-VALUE}).")
  int retainLast;

  @Option(names = "--dry-run", description = "List what would be deleted; change nothing.")
  boolean dryRun;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
    if (retainLast < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "Invalid value for option '--retain-last': " + retainLast + " (at least 1: the latest version is kept)");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    PrintWriter out = out();
    Instant now = Instant.now();
    for (String uuid : target.uuids(store)) {
      CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
      if (!log.state().exists()) {
        out.println("dataset " + uuid + ": no log, nothing to expire");
        continue;
      }
      LogExpiry.Result result = LogExpiry.expire(log, olderThan, retainLast, now, dryRun);
      for (String key : result.deleted()) {
        out.println((dryRun ? "would delete " : "deleted ") + key);
      }
      out.println("dataset " + uuid + ": " + (dryRun ? "would retain" : "retains") + " versions "
          + result.retainedFrom() + " to " + log.state().version() + "; "
          + (dryRun ? "would delete " : "deleted ") + result.deleted().size() + " log and index objects");
    }
    return Ktk.OK;
  }
}
