package io.ktk.flink.cli;

import io.ktk.flink.sink.compaction.CompactionOptions;
import io.ktk.flink.sink.compaction.CompactionPlan;
import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.sink.compaction.PartitionRewrite;
import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code ktk compact}: rewrites small files of a dataset (or each dataset of a cube) into larger ones. */
@Command(
    name = "compact",
    sortOptions = false,
    description = {
      "Rewrites the small files of each partition of a dataset, or of every dataset of a cube, into files of "
          + "about --target-file-size holding the same rows, and commits each batch as one version.",
      "A partition is compacted when it has a run of at least --min-input-files small files (below 3/4 of the "
          + "target) that can be rewritten together, or at least 2 when its newest file is older than "
          + "--idle-partition-after. Readers see the same rows before and after; in a cube dataset, rows that a "
          + "later row of the same cell supersedes are dropped (readers drop them anyway). Appends may go on "
          + "meanwhile. The plateau view is published afterwards. The files replaced stay until 'ktk gc' "
          + "deletes them."
    },
    footer = {
      "",
      "--where takes conditions on partition columns joined by 'and', in the language of ktk read: "
          + "day >= '2024-01-01', p in (1, 2), ...",
      "",
      "Prints per partition its files and bytes before and after, and the version that committed it. Exit "
          + "code 1 when a rewrite was not committed (another compaction or a partition replace removed its "
          + "files first, or it failed): nothing of it is left, run the command again.",
      "",
      "Examples:",
      "  ktk compact --store file:///data --dataset events --dry-run",
      "  ktk compact --store s3://bucket/cubes --cube sales --where \"day < '2024-06-01'\""
    })
final class CompactCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--where", paramLabel = "EXPR",
      description = "Only partitions whose values satisfy the condition (partition columns only, see below).")
  String where;

  @Option(names = "--dry-run", description = "Show what would be rewritten; write nothing.")
  boolean dryRun;

  @Option(names = "--target-file-size", paramLabel = "SIZE", converter = SizeConverter.class,
      defaultValue = "128mb", description = "The size of the files written: 64mb, 1gb, ... (default: 128mb).")
  MemorySize targetFileSize;

  @Option(names = "--min-input-files", paramLabel = "N", defaultValue = "8",
      description = "The fewest small files compacted in a partition that is not idle (default: 8, at least 2).")
  int minInputFiles;

  @Option(names = "--idle-partition-after", paramLabel = "DURATION", converter = DurationConverter.class,
      defaultValue = "1h", description = "A partition whose newest file is older is compacted from 2 small files on: "
          + "30m, 12h, 7d or ISO-8601 (default: 1h).")
  Duration idlePartitionAfter;

  @Option(names = "--threads", paramLabel = "N",
      description = "Files written at once (default: the number of cores).")
  Integer threads;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
    if (minInputFiles < 2) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--min-input-files': "
          + minInputFiles + " (at least 2: rewriting one file into one file gains nothing)");
    }
    if (threads != null && threads < 1) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--threads': " + threads
          + " (at least 1)");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    Configuration config = new Configuration();
    config.set(CompactionOptions.TARGET_FILE_SIZE, targetFileSize);
    config.set(CompactionOptions.MIN_INPUT_FILES, minInputFiles);
    config.set(CompactionOptions.IDLE_PARTITION_AFTER, idlePartitionAfter);
    config.set(CompactionOptions.PARALLELISM, threads != null ? threads : Runtime.getRuntime().availableProcessors());
    CompactionSettings settings = CompactionSettings.of(config);
    PrintWriter out = out();
    boolean allCommitted = true;
    List<String> uuids = target.uuids(store);
    for (int i = 0; i < uuids.size(); i++) {
      if (i > 0) {
        out.println();
      }
      allCommitted &= compact(store, uuids.get(i), settings, out);
    }
    return allCommitted ? Ktk.OK : Ktk.ERROR;
  }

  /** Compacts one dataset and prints what it did; false when a rewrite was not committed. */
  private boolean compact(ObjectStore store, String uuid, CompactionSettings settings, PrintWriter out)
      throws Exception {
    Compactor compactor = Compactor.of(store, uuid, settings);
    CompactionPlan plan = compactor.plan(partitions(DatasetSnapshot.latest(store, uuid)));
    out.println("dataset " + uuid + " at version " + plan.version() + ": " + (plan.isEmpty()
        ? "nothing to compact" : (dryRun ? "would rewrite " : "rewriting ") + TextTable.count(plan.inputFiles())
        + " files (" + TextTable.bytes(plan.inputBytes()) + ") of " + plan.rewrites().size()
        + (plan.rewrites().size() == 1 ? " partition into " : " partitions into ")
        + TextTable.count(plan.outputFiles())));
    if (plan.isEmpty()) {
      return true;
    }
    TextTable table = new TextTable(false, true, true, true, true, false)
        .add("partition", "files before", "bytes before", "files after", "bytes after", dryRun ? "why" : "outcome");
    if (dryRun) {
      for (PartitionRewrite rewrite : plan.rewrites()) {
        table.add(path(rewrite.partition()), TextTable.count(rewrite.filesBefore()),
            TextTable.bytes(rewrite.bytesBefore()),
            TextTable.count(rewrite.filesBefore() - rewrite.inputFiles() + rewrite.outputs().size()),
            "~" + TextTable.bytes(rewrite.bytesBefore()),
            rewrite.trigger() == PartitionRewrite.Trigger.IDLE ? "idle" : rewrite.inputFiles() + " small files");
      }
      table.print(out, "  ");
      return true;
    }
    try (Progress progress = progress("compacting " + uuid, 1)) {
      CompactionResult result = compactor.compact(plan);
      progress.step();
      for (CompactionResult.PartitionResult partition : result.partitions()) {
        table.add(path(partition.partition()), TextTable.count(partition.filesBefore()),
            TextTable.bytes(partition.bytesBefore()), TextTable.count(partition.filesAfter()),
            TextTable.bytes(partition.bytesAfter()), outcome(partition));
      }
      table.print(out, "  ");
      for (CompactionResult.PartitionResult partition : result.notCommitted()) {
        err().println("Cannot compact partition " + path(partition.partition()) + " of dataset '" + uuid + "': "
            + partition.message());
      }
      if (!result.committed().isEmpty()) {
        out.println("  published version " + compactor.publish() + " for plateau readers");
      }
      return result.notCommitted().isEmpty();
    }
  }

  /** The partitions {@code --where} admits (every one without it). */
  private Predicate<String> partitions(DatasetSnapshot snapshot) {
    if (where == null || where.isBlank()) {
      return partition -> true;
    }
    DatasetQuery query = DatasetQuery.builder().where(where).build();
    List<String> keys = snapshot.partitionKeys().stream().map(Field::getName).toList();
    for (Condition condition : query.conditions()) {
      if (!keys.contains(condition.column())) {
        throw new ParameterException(spec.commandLine(), "Invalid value for option '--where': column '"
            + condition.column() + "' is not a partition column of dataset '" + snapshot.uuid() + "' (partition "
            + "columns: " + keys + "); compaction selects whole partitions");
      }
    }
    // the partitions a read with these conditions plans (conditions on partition columns prune no file)
    QueryPlan plan = new PlainDatasetSnapshot(snapshot).plan(query.toCubeQuery());
    Set<String> admitted = new HashSet<>();
    for (QueryGroup group : plan.groups()) {
      for (GroupPartition partition : group.partitions()) {
        admitted.add(partition.path());
      }
    }
    return admitted::contains;
  }

  private static String path(String partition) {
    return partition.isEmpty() ? "(unpartitioned)" : partition;
  }

  private static String outcome(CompactionResult.PartitionResult partition) {
    return switch (partition.outcome()) {
      case COMMITTED -> "committed in version " + partition.version() + " (" + TextTable.count(partition.filesIn())
          + " files into " + TextTable.count(partition.filesOut()) + ")";
      case CONFLICT -> "not committed: lost to a concurrent change";
      case FAILED -> "not committed: failed";
      case UNKNOWN -> "unknown: the store failed while committing";
    };
  }

  /** Sizes as Flink writes them: {@code 128mb}, {@code 1 gb}, {@code 4096}. */
  static final class SizeConverter implements ITypeConverter<MemorySize> {
    @Override
    public MemorySize convert(String value) {
      try {
        MemorySize size = MemorySize.parse(value);
        if (size.getBytes() <= 0) {
          throw new IllegalArgumentException("the size must be positive");
        }
        return size;
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a size such as 64mb or 1gb: "
            + e.getMessage());
      }
    }
  }
}
