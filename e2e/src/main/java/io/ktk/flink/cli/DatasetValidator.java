package io.ktk.flink.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.ArrowSchemaMetadata;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.types.ArrowTypeNames;
import io.ktk.flink.state.types.SchemaCompatibility;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks one dataset from end to end and collects what is wrong, rather than stopping at the first
 * problem:
 *
 * <ul>
 *   <li>the log replays, and the published metadata shows a version of it with the same files
 *       (a published version behind the log is a warning: a writer may be between commit and publish);
 *   <li>{@code _common_metadata} holds the committed schema, laid out as plateau lays it out;
 *   <li>every data file exists, its footer reads, its physical schema fits the committed schema
 *       ({@link SchemaCompatibility}), its row count and size are those the log recorded, and every
 *       page that carries a CRC matches it (the whole file is read);
 *   <li>every secondary index (the log's and the published index file) lists exactly the values each
 *       file holds: the index columns are read from every file, nothing else is;
 *   <li>files under {@code table/} that nothing references are reported as a warning ({@code ktk gc}).
 * </ul>
 */
final class DatasetValidator {
  /** How many instances of one kind of index mismatch are listed. */
  private static final int EXAMPLES = 5;

  private final ObjectStore store;
  private final String uuid;
  private final List<String> problems = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private DatasetState state;

  DatasetValidator(ObjectStore store, String uuid) {
    this.store = store;
    this.uuid = uuid;
  }

  List<String> problems() {
    return problems;
  }

  List<String> warnings() {
    return warnings;
  }

  /** The state that was validated, or null when the log could not be read. */
  DatasetState state() {
    return state;
  }

  /** Runs every check; throws only when the dataset does not exist at all. */
  DatasetValidator validate(Progress progress) throws IOException {
    boolean hasLog;
    Optional<DatasetMetadata> view;
    try {
      view = DatasetMetadata.load(store, uuid);
    } catch (KtkException e) {
      problems.add("published metadata: " + e.getMessage());
      view = Optional.empty();
    }
    LogReader reader = new LogReader(store, uuid);
    try {
      hasLog = reader.hasLog();
      state = hasLog ? reader.latest() : reader.latestOrPublished();
    } catch (KtkException e) {
      problems.add("log: " + e.getMessage());
      return this;
    }
    if (!state.exists()) {
      if (problems.isEmpty()) {
        throw new NoSuchDatasetException("Cannot validate dataset '" + uuid + "' in " + store.url()
            + ": it has neither a commit log nor plateau metadata");
      }
      return this;
    }
    DatasetState published = hasLog ? checkView(reader, view) : state;
    checkCommonMetadata();
    Map<String, DataFile> readable = checkFiles(progress);
    for (String column : state.indexColumns()) {
      checkIndex(column, readable, published, view);
    }
    checkUnreferenced(view);
    return this;
  }

  /** Compares the published view with the log; returns the state at the version the view shows. */
  private DatasetState checkView(LogReader reader, Optional<DatasetMetadata> view) throws IOException {
    if (view.isEmpty()) {
      problems.add("it has a log at version " + state.version() + " but no published metadata, so plateau cannot"
          + " read it");
      return null;
    }
    JsonNode shown = view.get().metadata().get(PlateauPublisher.LOG_VERSION_KEY);
    if (shown == null || !shown.canConvertToLong()) {
      problems.add("the published metadata does not name a log version (" + PlateauPublisher.LOG_VERSION_KEY
          + "): something other than this project wrote it after the log began");
      return null;
    }
    long version = shown.asLong();
    if (version != state.version()) {
      warnings.add("the published metadata shows version " + version + ", the log is at version " + state.version()
          + " (a writer may be publishing; if this stays, a publish failed: the next commit publishes again)");
    }
    DatasetState atView = version == state.version() ? state : reader.at(version);
    if (atView.version() != version) {
      problems.add("the published metadata shows version " + version + ", which the log does not have");
      return null;
    }
    Set<String> logFiles = new TreeSet<>();
    atView.files().values().forEach(file -> logFiles.add(file.key(uuid)));
    Set<String> viewFiles = new TreeSet<>(view.get().fileKeys().values());
    reportDifference("data file", "the published metadata", viewFiles, "the log at version " + version, logFiles);
    if (!view.get().partitionKeys().equals(atView.partitionKeys())) {
      problems.add("the published metadata has partition keys " + view.get().partitionKeys() + ", the log "
          + atView.partitionKeys());
    }
    return atView;
  }

  private void checkCommonMetadata() throws IOException {
    String key = DatasetKeys.commonMetadataKey(uuid);
    Schema stored;
    try {
      stored = CommonMetadataFile.read(store, key);
    } catch (KtkException e) {
      problems.add("_common_metadata: " + e.getMessage());
      return;
    }
    Schema expected = CommonMetadataFile.layout(state.schema(), state.partitionKeys());
    List<String> storedColumns = stored.getFields().stream().map(f -> f.getName() + ": " + ArrowTypeNames.name(f)).toList();
    List<String> expectedColumns =
        expected.getFields().stream().map(f -> f.getName() + ": " + ArrowTypeNames.name(f)).toList();
    boolean same = stored.getFields().size() == expected.getFields().size();
    for (int i = 0; same && i < stored.getFields().size(); i++) {
      Field a = stored.getFields().get(i);
      Field b = expected.getFields().get(i);
      same = a.getName().equals(b.getName()) && StoredSchemas.sameAsPlateauReadsIt(a, b);
    }
    if (!same) {
      problems.add(key + " holds columns " + storedColumns + ", the committed schema is " + expectedColumns);
    }
  }

  /** Reads every footer; returns the files that could be read, by label. */
  private Map<String, DataFile> checkFiles(Progress progress) throws IOException {
    Set<String> partitionKeys = new HashSet<>(state.partitionKeys());
    Schema committed = new Schema(
        state.schema().getFields().stream().filter(f -> !partitionKeys.contains(f.getName())).toList());
    Map<String, DataFile> readable = new HashMap<>();
    for (DataFile file : state.files().values()) {
      String key = file.key(uuid);
      progress.step();
      Optional<ObjectInfo> object = store.head(key);
      if (object.isEmpty()) {
        problems.add("data file " + key + " is missing");
        continue;
      }
      if (file.bytes() >= 0 && object.get().size() != file.bytes()) {
        problems.add("data file " + key + " has " + object.get().size() + " bytes, the log recorded " + file.bytes());
      }
      try (ParquetRowsReader reader = ParquetRowsReader.open(
          new StoreInputFile(store, key, object.get().size(), StoreInputFile.DEFAULT_READ_AHEAD))) {
        if (file.rows() >= 0 && reader.rowCount() != file.rows()) {
          problems.add("data file " + key + " has " + reader.rowCount() + " rows, the log recorded " + file.rows());
        }
        String arrowSchema = reader.keyValueMetadata().get(ArrowSchemaMetadata.KEY);
        Schema physical = arrowSchema != null ? ArrowSchemaMetadata.decode(arrowSchema, key) : reader.arrowSchema();
        // Plateau strips partition columns from the files; tolerate writers that keep them.
        physical = new Schema(physical.getFields().stream().filter(f -> !partitionKeys.contains(f.getName())).toList());
        boolean fits = fits(key, committed, StoredSchemas.asDataColumns(physical, committed, reader.keyValueMetadata()));
        // Every page is read, whatever the columns: a flipped bit anywhere makes the file corrupt.
        reader.verifyPageChecksums();
        if (fits) {
          readable.put(file.label(), file);
        }
      } catch (KtkException e) {
        problems.add("data file " + key + ": " + e.getMessage());
      }
    }
    return readable;
  }

  private boolean fits(String key, Schema committed, Schema physical) {
    try {
      SchemaCompatibility.check(uuid, committed, physical);
      return true;
    } catch (KtkException e) {
      problems.add("data file " + key + ": " + e.getMessage());
      return false;
    }
  }

  private void checkIndex(String column, Map<String, DataFile> readable, DatasetState published,
      Optional<DatasetMetadata> view) throws IOException {
    Field field = state.schema().findField(column);
    Comparator<Object> order = IndexFile.valueOrder(field.getType());
    NavigableMap<Object, Set<String>> logged = new TreeMap<>(order);
    state.index(column).forEach((value, labels) -> logged.put(value.value(), new TreeSet<>(labels)));

    Set<String> unknownLabels = new TreeSet<>();
    logged.values().forEach(labels -> labels.stream().filter(l -> !state.files().containsKey(l)).forEach(unknownLabels::add));
    if (!unknownLabels.isEmpty()) {
      problems.add("the index of column " + column + " names files the dataset does not have: " + examples(unknownLabels));
    }

    NavigableMap<Object, Set<String>> actual = new TreeMap<>(order);
    Set<String> withNulls = new TreeSet<>();
    for (DataFile file : List.copyOf(readable.values())) {
      try {
        ColumnValues.Distinct values = ColumnValues.read(store, uuid, file, field);
        values.values().forEach(value -> actual.computeIfAbsent(value, v -> new TreeSet<>()).add(file.label()));
        if (values.hasNull()) {
          withNulls.add(file.label());
        }
      } catch (KtkException e) {
        problems.add("index column " + column + " of data file " + file.key(uuid) + ": " + e.getMessage());
        readable.remove(file.label());
      }
    }
    if (!withNulls.isEmpty()) {
      problems.add("index column " + column + " holds nulls (not allowed in index columns) in " + examples(withNulls));
    }
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    actual.forEach((value, labels) -> labels.forEach(label -> {
      if (!logged.getOrDefault(value, Set.of()).contains(label)) {
        missing.add(text(field, value) + " in " + label);
      }
    }));
    logged.forEach((value, labels) -> labels.forEach(label -> {
      if (readable.containsKey(label) && !actual.getOrDefault(value, Set.of()).contains(label)) {
        extra.add(text(field, value) + " in " + label);
      }
    }));
    if (!missing.isEmpty()) {
      problems.add("the index of column " + column + " lacks values the files hold: " + examples(missing));
    }
    if (!extra.isEmpty()) {
      problems.add("the index of column " + column + " lists values the files do not hold: " + examples(extra));
    }

    if (view.isPresent() && published != null) {
      String key = view.get().externalIndexKeys().get(column);
      if (key == null) {
        problems.add("the published metadata has no index file for index column " + column);
        return;
      }
      try {
        NavigableMap<Object, List<String>> file = IndexFile.read(store, key, column, field.getType());
        NavigableMap<Object, Set<String>> expected = new TreeMap<>(order);
        published.index(column).forEach((value, labels) -> expected.put(value.value(), new TreeSet<>(labels)));
        NavigableMap<Object, Set<String>> found = new TreeMap<>(order);
        file.forEach((value, labels) -> found.put(value, new TreeSet<>(labels)));
        if (!sameIndex(expected, found)) {
          problems.add("index file " + key + " differs from the log's index of column " + column + " at version "
              + published.version());
        }
      } catch (KtkException e) {
        problems.add("index file " + key + ": " + e.getMessage());
      }
    }
  }

  private static boolean sameIndex(NavigableMap<Object, Set<String>> a, NavigableMap<Object, Set<String>> b) {
    if (a.size() != b.size()) {
      return false;
    }
    Iterator<Map.Entry<Object, Set<String>>> left = a.entrySet().iterator();
    Iterator<Map.Entry<Object, Set<String>>> right = b.entrySet().iterator();
    Comparator<? super Object> order = a.comparator();
    while (left.hasNext()) {
      Map.Entry<Object, Set<String>> l = left.next();
      Map.Entry<Object, Set<String>> r = right.next();
      if (order.compare(l.getKey(), r.getKey()) != 0 || !l.getValue().equals(r.getValue())) {
        return false;
      }
    }
    return true;
  }

  private void checkUnreferenced(Optional<DatasetMetadata> view) throws IOException {
    Set<String> referenced = new HashSet<>();
    state.files().values().forEach(file -> referenced.add(file.key(uuid)));
    view.ifPresent(v -> referenced.addAll(v.fileKeys().values()));
    referenced.add(DatasetKeys.commonMetadataKey(uuid));
    int unreferenced = 0;
    Iterator<ObjectInfo> objects = store.list(uuid + "/" + DatasetKeys.TABLE + "/");
    while (objects.hasNext()) {
      if (!referenced.contains(objects.next().key())) {
        unreferenced++;
      }
    }
    if (unreferenced > 0) {
      warnings.add(unreferenced + " files under " + uuid + "/" + DatasetKeys.TABLE + "/ are not referenced (replaced,"
          + " or written by writers that have not committed yet); 'ktk gc' deletes them once they are old enough");
    }
  }

  private void reportDifference(String what, String leftName, Set<String> left, String rightName, Set<String> right) {
    NavigableSet<String> onlyLeft = new TreeSet<>(left);
    onlyLeft.removeAll(right);
    NavigableSet<String> onlyRight = new TreeSet<>(right);
    onlyRight.removeAll(left);
    if (!onlyLeft.isEmpty()) {
      problems.add(leftName + " lists " + what + "s that " + rightName + " does not have: " + examples(onlyLeft));
    }
    if (!onlyRight.isEmpty()) {
      problems.add(rightName + " has " + what + "s that " + leftName + " does not list: " + examples(onlyRight));
    }
  }

  private static String text(Field field, Object value) {
    return ValueFormat.text(field, value);
  }

  private static String examples(Collection<String> items) {
    List<String> list = new ArrayList<>(items);
    String shown = String.join(", ", list.subList(0, Math.min(EXAMPLES, list.size())));
    return list.size() > EXAMPLES ? shown + " and " + (list.size() - EXAMPLES) + " more" : shown;
  }
}
