package io.ktk.flink.cli;

import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ktk gc}: deletes the files of a dataset (or cube) that no version and no published view references. */
@Command(
    name = "gc",
    sortOptions = false,
    description = {
      "Deletes the files of a dataset or cube that nothing references and that are older than --older-than.",
      "Those are data and index files that no retained version and not the published metadata reference: "
          + "files that only expired versions held (see 'ktk expire'), index files of older metadata, files of "
          + "writers that failed before committing. The log and _common_metadata are kept. Younger files are "
          + "kept because running writers may still commit them; an age below 1h needs --force."
    },
    footer = {"", "Example:", "  ktk gc --store file:///data --cube sales --older-than 7d --dry-run"})
final class GcCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--older-than", paramLabel = "DURATION", converter = DurationConverter.class,
      defaultValue = "1d", description = "Only files older than this: 30m, 12h, 7d or ISO-8601 (default: 1d).")
  Duration olderThan;

  @Option(names = "--dry-run", description = "List what would be deleted; delete nothing.")
  boolean dryRun;

  @Option(names = "--force", description = "Accept an --older-than below 1h. Files that a running writer wrote "
      + "but has not committed yet would be deleted: use it only when no writer runs.")
  boolean force;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    PrintWriter out = out();
    Instant now = Instant.now();
    int files = 0;
    long bytes = 0;
    for (String uuid : target.uuids(store)) {
      GarbageCollector.Result result = GarbageCollector.collect(store, uuid, olderThan, now, dryRun, force);
      for (String key : result.deleted()) {
        out.println((dryRun ? "would delete " : "deleted ") + key);
      }
      out.println("dataset " + uuid + ": " + (dryRun ? "would delete " : "deleted ") + result.deleted().size()
          + " files, " + TextTable.count(result.deletedBytes()) + " bytes (" + TextTable.bytes(result.deletedBytes())
          + "); kept " + result.referenced() + " referenced and " + result.tooYoung() + " younger than "
          + DurationConverter.format(olderThan));
      files += result.deleted().size();
      bytes += result.deletedBytes();
    }
    if (target.isCube()) {
      out.println("cube " + target.cube + ": " + (dryRun ? "would delete " : "deleted ") + files + " files, "
          + TextTable.count(bytes) + " bytes (" + TextTable.bytes(bytes) + ")");
    }
    return Ktk.OK;
  }
}
