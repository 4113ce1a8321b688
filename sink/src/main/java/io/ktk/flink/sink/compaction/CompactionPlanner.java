package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.commit.ChangeFiles;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides which files of a dataset compaction rewrites, partition by partition.
 *
 * <p>Readers that find a cell in several files of a partition keep the row of the file with the
 * highest {@code addedIn} (then the highest label), so a rewrite must keep every file's rows in
 * that order relative to the files it leaves alone. The planner therefore orders a partition's
 * files by ({@code addedIn}, label), groups the files of one version, and takes only runs of
 * consecutive whole groups whose files are all small: a large file, or a version with a large
 * file, ends a run (rewriting around it would move older rows above it), and so does a file whose
 * version is unknown. A run of at least {@link CompactionSettings#minInputFiles()} files is taken;
 * a shorter one (of at least 2) only when the partition is idle: its newest file is older than
 * {@link CompactionSettings#idlePartitionAfter()}.
 *
 * <p>A run does not start with a version whose files hold more than two thirds of its bytes (an
 * earlier output, see {@link #withoutDominantHead}), so that a partition that keeps growing is not
 * rewritten whole for every few files added. A run is cut into outputs of about {@link
 * CompactionSettings#targetFileSize()} at file boundaries, in order; no output is made of a single
 * file (that would rewrite it for nothing).
 */
final class CompactionPlanner {
  /** How many modification times of files {@link #modified} keeps. */
  private static final int MODIFIED_CACHE_SIZE = 10_000;

  private final ObjectStore store;
  private final CompactionSettings settings;
  /**
   * When files were written, by key, as the store told: files never change, so a planner asked
   * again (a sink plans after every commit) looks each one up once.
   */
  private final Map<String, Instant> modified = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
      return size() > MODIFIED_CACHE_SIZE;
    }
  };

  CompactionPlanner(ObjectStore store, CompactionSettings settings) {
    this.store = store;
    this.settings = settings;
  }

  /** The plan for the partitions of {@code state} that {@code partitions} accepts. */
  CompactionPlan plan(DatasetState state, Predicate<String> partitions, Instant now) throws IOException {
    Set<String> physical = new LinkedHashSet<>();
    for (DataFile file : state.files().values()) {
      physical.add(file.physicalPartition());
    }
    List<PartitionRewrite> rewrites = new ArrayList<>();
    for (String partition : physical) {
      if (partitions.test(partition)) {
        planPartition(state, partition, now).ifPresent(rewrites::add);
      }
    }
    return new CompactionPlan(state.uuid(), state.version(), rewrites);
  }

  private Optional<PartitionRewrite> planPartition(DatasetState state, String partition, Instant now)
      throws IOException {
    List<DataFile> files = new ArrayList<>();
    for (String label : state.labelsIn(partition)) {
      files.add(state.files().get(label));
    }
    if (files.size() < 2) {
      return Optional.empty();
    }
    Map<String, Long> sizes = sizes(state.uuid(), partition, files);
    List<CompactionInput> ordered = new ArrayList<>();
    for (DataFile file : files) {
      ordered.add(new CompactionInput(file, state.addedIn(file.label()), sizes.getOrDefault(file.label(), -1L)));
    }
    ordered.sort(Comparator.comparingLong(CompactionInput::addedIn).thenComparing(CompactionInput::label));
    long bytesBefore = ordered.stream().mapToLong(f -> Math.max(0, f.bytes())).sum();

    List<List<CompactionInput>> runs = runs(ordered);
    List<List<CompactionInput>> taken = runs.stream().filter(run -> run.size() >= settings.minInputFiles()).toList();
    PartitionRewrite.Trigger trigger = PartitionRewrite.Trigger.MIN_INPUT_FILES;
    if (taken.isEmpty() && runs.stream().anyMatch(run -> run.size() >= 2)
        && isIdle(state.uuid(), ordered.get(ordered.size() - 1), now)) {
      taken = runs.stream().filter(run -> run.size() >= 2).toList();
      trigger = PartitionRewrite.Trigger.IDLE;
    }
    if (taken.isEmpty()) {
      return Optional.empty();
    }
    List<PlannedOutput> outputs = new ArrayList<>();
    for (List<CompactionInput> run : taken) {
      for (PlannedOutput output : cut(run)) {
        // Compared by identity: the oldest file of the partition begins the output's rows.
        outputs.add(new PlannedOutput(output.inputs(), output.inputs().get(0) == ordered.get(0)));
      }
    }
    return Optional.of(new PartitionRewrite(partition, trigger, files.size(), bytesBefore, outputs));
  }

  /**
   * The fold of a dataset with a primary key ({@code docs/cdc.md}): each partition of {@code state}
   * that holds a change file ({@link ChangeFiles#isChangeFile}) is rewritten whole into one file,
   * with one row per key and no deleted key; partitions without change files are left alone.
   */
  static CompactionPlan planFold(DatasetState state) {
    Map<String, List<DataFile>> dirty = new LinkedHashMap<>();
    for (DataFile file : state.files().values()) {
      if (ChangeFiles.isChangeFile(file)) {
        dirty.putIfAbsent(file.physicalPartition(), new ArrayList<>());
      }
    }
    List<PartitionRewrite> rewrites = new ArrayList<>();
    for (String partition : dirty.keySet()) {
      List<CompactionInput> ordered = new ArrayList<>();
      for (String label : state.labelsIn(partition)) {
        DataFile file = state.files().get(label);
        // A version the log does not know (older snapshots) counts as the oldest: the output's sequence stays valid.
        ordered.add(new CompactionInput(file, Math.max(0, state.addedIn(label)), Math.max(0, file.bytes())));
      }
      ordered.sort(Comparator.comparingLong(CompactionInput::addedIn).thenComparing(CompactionInput::label));
      long bytes = ordered.stream().mapToLong(CompactionInput::bytes).sum();
      rewrites.add(new PartitionRewrite(partition, PartitionRewrite.Trigger.FOLD, ordered.size(), bytes,
          List.of(new PlannedOutput(ordered, true))));
    }
    return new CompactionPlan(state.uuid(), state.version(), rewrites);
  }

  /** The maximal runs of consecutive whole version groups whose files are all small. */
  private List<List<CompactionInput>> runs(List<CompactionInput> ordered) {
    List<List<CompactionInput>> runs = new ArrayList<>();
    List<CompactionInput> run = new ArrayList<>();
    int i = 0;
    while (i < ordered.size()) {
      int end = i;
      boolean small = true;
      while (end < ordered.size() && ordered.get(end).addedIn() == ordered.get(i).addedIn()) {
        CompactionInput file = ordered.get(end);
        small &= file.addedIn() >= 0 && file.bytes() >= 0 && file.bytes() < settings.smallFileBytes();
        end++;
      }
      if (small) {
        run.addAll(ordered.subList(i, end));
      } else if (!run.isEmpty()) {
        runs.add(run);
        run = new ArrayList<>();
      }
      i = end;
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    runs.replaceAll(CompactionPlanner::withoutDominantHead);
    return runs;
  }

  /**
   * The run without its leading version groups as long as the first one holds more than twice the
   * bytes of the rest: those are earlier outputs of compaction, which would otherwise be rewritten
   * for every few small files appended after them (quadratic rewriting of a growing partition).
   * Left out, a file is rewritten again only once the files after it add up to half its size, so
   * each row is rewritten a logarithmic number of times. Dropping a head keeps the run contiguous.
   */
  static List<CompactionInput> withoutDominantHead(List<CompactionInput> run) {
    int start = 0;
    long total = run.stream().mapToLong(file -> Math.max(0, file.bytes())).sum();
    while (start < run.size()) {
      int end = start;
      long head = 0;
      while (end < run.size() && run.get(end).addedIn() == run.get(start).addedIn()) {
        head += Math.max(0, run.get(end).bytes());
        end++;
      }
      if (head <= 2 * (total - head)) {
        break;
      }
      total -= head;
      start = end;
    }
    return start == 0 ? run : new ArrayList<>(run.subList(start, run.size()));
  }

  /**
   * Cuts a run into about {@code bytes / target} outputs of about equal size at file boundaries;
   * an output of one file joins its predecessor (or successor).
   */
  private List<PlannedOutput> cut(List<CompactionInput> run) {
    long total = run.stream().mapToLong(CompactionInput::bytes).sum();
    long count = Math.max(1, Math.round((double) total / settings.targetFileSize()));
    List<List<CompactionInput>> groups = new ArrayList<>();
    List<CompactionInput> group = new ArrayList<>();
    long cumulative = 0;
    for (CompactionInput file : run) {
      group.add(file);
      cumulative += file.bytes();
      if (cumulative * count >= total * (groups.size() + 1) && groups.size() + 1 < count) {
        groups.add(group);
        group = new ArrayList<>();
      }
    }
    if (!group.isEmpty()) {
      groups.add(group);
    }
    for (int g = 0; g < groups.size() && groups.size() > 1; g++) {
      if (groups.get(g).size() == 1) {
        List<CompactionInput> single = groups.remove(g);
        if (g > 0) {
          groups.get(g - 1).addAll(single);
        } else {
          groups.get(0).addAll(0, single);
        }
        g--;
      }
    }
    return groups.stream().map(PlannedOutput::new).toList();
  }

  /**
   * Sizes of the partition's files: from the log, or, for files whose size it does not know
   * (adopted from plateau), from one listing of the partition.
   */
  private Map<String, Long> sizes(String uuid, String partition, List<DataFile> files) throws IOException {
    Map<String, Long> sizes = new HashMap<>();
    boolean unknown = false;
    for (DataFile file : files) {
      sizes.put(file.label(), file.bytes());
      unknown |= file.bytes() < 0;
    }
    if (unknown) {
      String prefix = uuid + "/table/" + (partition.isEmpty() ? "" : partition + "/");
      Map<String, String> labelsByKey = new HashMap<>();
      files.forEach(file -> labelsByKey.put(file.key(uuid), file.label()));
      for (Iterator<ObjectInfo> it = store.list(prefix); it.hasNext(); ) {
        ObjectInfo info = it.next();
        String label = labelsByKey.get(info.key());
        if (label != null && sizes.get(label) < 0) {
          sizes.put(label, info.size());
        }
      }
    }
    return sizes;
  }

  private boolean isIdle(String uuid, CompactionInput newest, Instant now) throws IOException {
    String key = newest.file().key(uuid);
    Instant written = modified.get(key);
    if (written == null) {
      Optional<ObjectInfo> info = store.head(key);
      if (info.isEmpty()) {
        return false;
      }
      written = info.get().lastModified();
      modified.put(key, written);
    }
    return Duration.between(written, now).compareTo(settings.idlePartitionAfter()) >= 0;
  }
}
