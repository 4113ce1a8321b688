package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.PublishedViews.View;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;

/**
 * The checks of the changelog tests: a job writes a dataset with a primary key from an input whose
 * records are numbered ({@link Changelogs.Prefixes} notes how many came before each checkpoint),
 * and the test knows the table after the first {@code n} records ({@link Reference}). Sampled
 * versions of the log (merged by key, {@link ChangeLogReader}) and sampled published views (read by
 * pyarrow, pandas and DuckDB, {@link PublishedViews}) must hold the table at their checkpoint, and
 * the last of each the table after the whole input; so must every other sampled version, and the
 * latest, read through the Flink source and SQL ({@link ProjectReaders}).
 */
final class ChangelogChecks {
  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");

  /** The table after the first {@code records} records of the input: per key, the row's values. */
  @FunctionalInterface
  interface Reference {
    Map<List<Object>, List<Object>> after(long records);
  }

  private ChangelogChecks() {}

  /**
   * Checks the dataset {@code uuid} written from the input {@code name} of {@code total} records.
   *
   * @param columns the columns compared, in the order of the reference's values
   */
  static void assertTables(ObjectStore store, Path root, String uuid, String name, long total, Reference reference,
      List<String> columns, List<View> seen, Path work) throws IOException {
    DatasetState latest = new LogReader(store, uuid).latest();
    List<String> key = PrimaryKey.of(uuid, latest.metadata()).orElseThrow();
    Changelogs.assertTable("the log's latest version of " + uuid, ChangeLogReader.read(store, latest, columns),
        reference.after(total));
    assertThat(new LogReader(store, uuid).at(0).files().values()).as("the first commit's files are change files")
        .allMatch(file -> file.physicalSchema().getFields().stream()
            .anyMatch(field -> field.getName().equals(PrimaryKey.DELETED_COLUMN)));

    List<Long> versions = new ArrayList<>();
    for (long v = 0; v < latest.version(); v += Math.max(1, latest.version() / 8)) {
      versions.add(v);
    }
    int checked = 0;
    Map<Long, Long> prefixes = new java.util.TreeMap<>();
    for (long v : versions) {
      Optional<Long> prefix = prefixAt(store, uuid, name, v);
      if (prefix.isPresent()) {
        Changelogs.assertTable("the log of " + uuid + " at version " + v, ChangeLogReader.read(store, uuid, v, columns),
            reference.after(prefix.get()));
        prefixes.put(v, prefix.get());
        checked++;
      }
    }
    assertThat(checked).as("sampled versions of the log checked").isGreaterThanOrEqualTo(versions.size() / 2);
    prefixes.put(latest.version(), total);
    assertProjectReaders(root.toUri().toString(), uuid, prefixes, reference, columns, key);

    assertThat(seen).as("views published").isNotEmpty();
    View last = seen.get(seen.size() - 1);
    List<View> sampled = new ArrayList<>();
    for (int i = 0; i < seen.size() - 1; i += Math.max(1, seen.size() / 6)) {
      sampled.add(seen.get(i));
    }
    sampled.add(last);
    List<View> known = new ArrayList<>();
    List<List<List<Object>>> expected = new ArrayList<>();
    for (View view : sampled) {
      Optional<Long> prefix = prefixAt(store, uuid, name, view.version());
      if (prefix.isPresent()) {
        known.add(view);
        expected.add(List.copyOf(reference.after(prefix.get()).values()));
      }
    }
    assertThat(known).as("sampled views with a known checkpoint").contains(last).hasSizeGreaterThan(1);
    assertThat(prefixAt(store, uuid, name, last.version())).as("the last view shows the whole input").contains(total);
    PublishedViews.assertViews(root, known, columns, key, expected, work);
    System.out.println(uuid + ": " + total + " records, " + latest.version() + " versions, " + checked
        + " versions of the log and " + known.size() + " published views checked");
  }

  /**
   * The Flink source and SQL read every other sampled version (and the latest) as the reference
   * has it: each a Flink job, so not all of them.
   */
  private static void assertProjectReaders(String url, String uuid, Map<Long, Long> prefixes, Reference reference,
      List<String> columns, List<String> key) throws IOException {
    List<Long> versions = new ArrayList<>(prefixes.keySet());
    for (int i = versions.size() - 1; i >= 0; i -= 2) {
      long v = versions.get(i);
      Map<List<Object>, List<Object>> expected = reference.after(prefixes.get(v));
      try {
        Changelogs.assertTable("the Flink source over " + uuid + " at version " + v,
            ProjectReaders.bySource(url, uuid, v, columns, key), expected);
        Changelogs.assertTable("SQL over " + uuid + " at version " + v,
            ProjectReaders.bySql(url, uuid, v, columns, key), expected);
      } catch (IOException | RuntimeException | Error e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("Cannot read " + uuid + " at version " + v, e);
      }
    }
  }

  /** How many input records the version holds: those before the barrier of its checkpoint. */
  static Optional<Long> prefixAt(ObjectStore store, String uuid, String name, long version) throws IOException {
    return ChangeLogReader.checkpointOf(store, uuid, version).map(c -> Changelogs.prefix(name, c));
  }

  /** Waits until a committed version of {@code uuid} holds at least {@code records} records of input {@code name}. */
  static void awaitCommitted(ObjectStore store, String uuid, String name, long records, JobClient job)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (System.nanoTime() < deadline) {
      assertThat(job.getJobStatus().get().isGloballyTerminalState()).as("the job is still running").isFalse();
      DatasetState state = new LogReader(store, uuid).latest();
      Optional<Long> checkpoint = state.checkpoints().values().stream().max(Long::compare);
      Long prefix = checkpoint.map(c -> Changelogs.prefix(name, c)).orElse(null);
      if (prefix != null && prefix >= records) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the job did not commit " + records + " records in 5 minutes");
  }

  /** The latest complete checkpoint Flink retained under {@code dir} ({@code <job>/chk-<n>/_metadata}). */
  static Optional<Path> latestCheckpoint(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir, 2)) {
      return files.filter(path -> CHECKPOINT.matcher(path.getFileName().toString()).matches())
          .filter(path -> Files.isRegularFile(path.resolve("_metadata")))
          .max(Comparator.comparingLong(path -> {
            Matcher matcher = CHECKPOINT.matcher(path.getFileName().toString());
            matcher.matches();
            return Long.parseLong(matcher.group(1));
          }));
    }
  }
}
