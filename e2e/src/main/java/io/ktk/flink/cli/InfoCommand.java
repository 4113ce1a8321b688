package io.ktk.flink.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.LogStats;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ktk info}: what a dataset or cube is, from its log and published metadata (no data file is read). */
@Command(
    name = "info",
    sortOptions = false,
    description = "Shows a dataset's version, partitions, files, rows, bytes, schema, indices and metadata; "
        + "for a cube, each of its datasets, the cube's spec and whether the datasets obey the cube rules.",
    footer = {
      "",
      "JSON fields (--json) of a dataset:",
      "  uuid, version (latest committed), committed_at (ISO-8601),",
      "  published_version (version the plateau metadata shows; null if none),",
      "  partition_keys [names], partitions, files,",
      "  rows, bytes (null when unknown: files adopted from plateau),",
      "  schema [{name, partition_key (true/false),",
      "           normalized (pyarrow type name, as committed),",
      "           stored [pyarrow types of the column in the data files,",
      "                   as the log recorded them; empty when unknown]}]",
      "         in _common_metadata order (partition keys, then by name),",
      "  indices [{column, values (number of distinct values)}],",
      "  metadata {key: JSON value}.",
      "Of a cube:",
      "  cube, spec {dimension_columns, partition_columns, seed_dataset,",
      "              suppress_index_on} (null when no seed is found),",
      "  valid (true/false), problem (the broken rule, or null),",
      "  datasets [{dataset_id, then the fields of a dataset}], seed first.",
      "",
      "Example:",
      "  ktk info --store s3://bucket/data --store-option region=eu-west-1 \\",
      "      --cube sales --json"
    })
final class InfoCommand extends StoreCommand {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--json", description = "Print JSON (fields below) instead of text.")
  boolean json;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    ObjectNode result;
    if (target.isCube()) {
      CubeDatasets cube = CubeDatasets.load(store, target.cube);
      result = describeCube(cube);
      for (JsonNode dataset : result.get("datasets")) {
        addHealth((ObjectNode) dataset, store, cube.datasets().get(dataset.get("dataset_id").asText()));
      }
    } else {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, target.dataset);
      result = describe(snapshot, DatasetMetadata.load(store, target.dataset));
      addHealth(result, store, snapshot);
    }
    PrintWriter out = out();
    if (json) {
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(result));
    } else if (target.isCube()) {
      printCube(out, result);
    } else {
      printDataset(out, result, "");
    }
    return Ktk.OK;
  }

  static ObjectNode describe(DatasetSnapshot snapshot, Optional<DatasetMetadata> published) {
    ObjectNode node = NODES.objectNode();
    node.put("uuid", snapshot.uuid());
    node.put("version", snapshot.version());
    node.put("committed_at", snapshot.committedAt().toString());
    JsonNode publishedVersion = published.map(m -> m.metadata().get(PlateauPublisher.LOG_VERSION_KEY)).orElse(null);
    node.set("published_version", publishedVersion == null ? NODES.nullNode() : publishedVersion);
    ArrayNode keys = node.putArray("partition_keys");
    snapshot.partitionKeys().forEach(key -> keys.add(key.getName()));
    node.put("partitions", snapshot.partitions().size());
    node.put("files", snapshot.fileCount());
    putCount(node, "rows", snapshot.rows());
    putCount(node, "bytes", snapshot.bytes());

    List<String> keyNames = snapshot.partitionKeys().stream().map(Field::getName).toList();
    ArrayNode schema = node.putArray("schema");
    for (Field field : CommonMetadataFile.layout(snapshot.schema(), keyNames).getFields()) {
      ObjectNode column = schema.addObject();
      column.put("name", field.getName());
      column.put("partition_key", keyNames.contains(field.getName()));
      column.put("normalized", ArrowTypeNames.name(field));
      ArrayNode stored = column.putArray("stored");
      storedTypes(snapshot, field.getName()).forEach(stored::add);
    }
    ArrayNode indices = node.putArray("indices");
    for (String column : snapshot.indexColumns()) {
      indices.addObject().put("column", column).put("values", snapshot.index(column).size());
    }
    ObjectNode metadata = node.putObject("metadata");
    snapshot.metadata().forEach(metadata::set);
    return node;
  }

  /**
   * What tells whether the dataset stays healthy: its files by size class ({@link FileSizes}) and
   * its log (versions retained, entries, snapshots, bytes, the last compaction).
   */
  private static void addHealth(ObjectNode node, ObjectStore store, DatasetSnapshot snapshot) throws IOException {
    FileSizes sizes = new FileSizes();
    snapshot.partitions().forEach(partition -> sizes.addAll(partition.files()));
    ObjectNode fileSizes = node.putObject("file_sizes");
    String[] classes = {"under_1mib", "1_to_16mib", "16_to_128mib", "128mib_or_more", "unknown"};
    long[] counts = sizes.counts();
    for (int i = 0; i < classes.length; i++) {
      fileSizes.put(classes[i], counts[i]);
    }
    DatasetState state = new LogReader(store, snapshot.uuid()).latest();
    ObjectNode log = node.putObject("log");
    if (!state.exists()) {
      return;
    }
    LogStats stats = LogStats.of(store, snapshot.uuid());
    log.put("retained_from", state.retainedFrom());
    log.put("version", state.version());
    log.put("entries", stats.entries());
    log.put("snapshots", stats.snapshots());
    log.put("bytes", stats.bytes());
    if (state.lastRewriteVersion() >= 0) {
      log.putObject("last_compaction").put("version", state.lastRewriteVersion())
          .put("committed_at", state.lastRewriteTime().toString());
    } else {
      log.putNull("last_compaction");
    }
  }

  /** The distinct types the data files store for a column, as the log recorded them. */
  private static Set<String> storedTypes(DatasetSnapshot snapshot, String column) {
    Set<String> types = new TreeSet<>();
    snapshot.partitions().forEach(partition -> {
      for (DataFile file : partition.files()) {
        if (file.physicalSchema() != null) {
          file.physicalSchema().getFields().stream().filter(f -> f.getName().equals(column))
              .forEach(f -> types.add(ArrowTypeNames.name(f)));
        }
      }
    });
    return types;
  }

  private static void putCount(ObjectNode node, String name, long value) {
    if (value < 0) {
      node.putNull(name);
    } else {
      node.put(name, value);
    }
  }

  static ObjectNode describeCube(CubeDatasets cube) {
    ObjectNode node = NODES.objectNode();
    node.put("cube", cube.cube());
    CubeSpec spec = cube.spec();
    if (spec == null) {
      node.putNull("spec");
    } else {
      ObjectNode specNode = node.putObject("spec");
      spec.dimensionColumns().forEach(specNode.putArray("dimension_columns")::add);
      spec.partitionColumns().forEach(specNode.putArray("partition_columns")::add);
      specNode.put("seed_dataset", spec.seedDatasetId());
      spec.suppressIndexOn().forEach(specNode.putArray("suppress_index_on")::add);
    }
    node.put("valid", cube.problem() == null);
    if (cube.problem() == null) {
      node.putNull("problem");
    } else {
      node.put("problem", cube.problem());
    }
    ArrayNode datasets = node.putArray("datasets");
    for (String id : cube.ids()) {
      ObjectNode dataset = datasets.addObject();
      dataset.put("dataset_id", id);
      dataset.setAll(describe(cube.datasets().get(id), Optional.ofNullable(cube.published().get(id))));
    }
    return node;
  }

  private static void printCube(PrintWriter out, ObjectNode cube) {
    TextTable head = new TextTable();
    head.add("cube", cube.get("cube").asText());
    JsonNode spec = cube.get("spec");
    if (!spec.isNull()) {
      head.add("seed dataset", spec.get("seed_dataset").asText());
      head.add("dimension columns", names(spec.get("dimension_columns")));
      head.add("partition columns", names(spec.get("partition_columns")));
      if (!spec.get("suppress_index_on").isEmpty()) {
        head.add("no index on", names(spec.get("suppress_index_on")));
      }
    }
    head.add("cube rules", cube.get("valid").asBoolean() ? "obeyed" : "BROKEN: " + cube.get("problem").asText());
    head.print(out, "");
    for (JsonNode dataset : cube.get("datasets")) {
      out.println();
      out.println("dataset " + dataset.get("dataset_id").asText() + ":");
      printDataset(out, (ObjectNode) dataset, "  ");
    }
  }

  private static void printDataset(PrintWriter out, ObjectNode dataset, String indent) {
    TextTable head = new TextTable();
    head.add("uuid", dataset.get("uuid").asText());
    JsonNode published = dataset.get("published_version");
    head.add("version", dataset.get("version").asLong() + ", committed " + dataset.get("committed_at").asText()
        + (published.isNull() ? "" : " (published metadata shows version " + published.asLong() + ")"));
    head.add("partition keys", dataset.get("partition_keys").isEmpty() ? "(none)" : names(dataset.get("partition_keys")));
    head.add("partitions", TextTable.count(dataset.get("partitions").asLong()));
    head.add("files", TextTable.count(dataset.get("files").asLong()));
    head.add("rows", dataset.get("rows").isNull() ? "unknown" : TextTable.count(dataset.get("rows").asLong()));
    head.add("bytes", dataset.get("bytes").isNull() ? "unknown"
        : TextTable.count(dataset.get("bytes").asLong()) + " (" + TextTable.bytes(dataset.get("bytes").asLong()) + ")");
    if (dataset.has("file_sizes")) {
      JsonNode sizes = dataset.get("file_sizes");
      StringBuilder text = new StringBuilder();
      sizes.properties().forEach(e -> text.append(text.length() == 0 ? "" : ", ").append(e.getValue().asLong())
          .append(" ").append(e.getKey().replace('_', ' ')));
      head.add("file sizes", text.toString());
    }
    JsonNode log = dataset.get("log");
    if (log != null && log.has("version")) {
      head.add("log", "versions " + log.get("retained_from").asLong() + " to " + log.get("version").asLong()
          + " retained; " + TextTable.count(log.get("entries").asLong()) + " entries, "
          + TextTable.count(log.get("snapshots").asLong()) + " snapshots, " + TextTable.bytes(log.get("bytes").asLong()));
      head.add("last compaction", log.get("last_compaction").isNull() ? "none"
          : "version " + log.get("last_compaction").get("version").asLong() + ", "
              + log.get("last_compaction").get("committed_at").asText());
    }
    head.print(out, indent);

    out.println(indent + "schema:");
    TextTable schema = new TextTable().add("column", "type", "stored in files");
    for (JsonNode column : dataset.get("schema")) {
      String stored = column.get("partition_key").asBoolean() ? "(partition key: in the labels)"
          : column.get("stored").isEmpty() ? "unknown" : names(column.get("stored"));
      schema.add(column.get("name").asText(), column.get("normalized").asText(), stored);
    }
    schema.print(out, indent + "  ");

    out.println(indent + "indices:" + (dataset.get("indices").isEmpty() ? " (none)" : ""));
    TextTable indices = new TextTable(false, true);
    for (JsonNode index : dataset.get("indices")) {
      indices.add(index.get("column").asText(), TextTable.count(index.get("values").asLong()), "values");
    }
    indices.print(out, indent + "  ");

    out.println(indent + "metadata:" + (dataset.get("metadata").isEmpty() ? " (none)" : ""));
    TextTable metadata = new TextTable();
    for (Map.Entry<String, JsonNode> entry : dataset.get("metadata").properties()) {
      metadata.add(entry.getKey(), entry.getValue().toString());
    }
    metadata.print(out, indent + "  ");
  }

  private static String names(JsonNode array) {
    StringBuilder text = new StringBuilder();
    array.forEach(element -> text.append(text.length() == 0 ? "" : ", ").append(element.asText()));
    return text.toString();
  }
}
