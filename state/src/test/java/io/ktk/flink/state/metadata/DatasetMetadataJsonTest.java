package io.ktk.flink.state.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetMetadataJsonTest {
  static final String LOCATION = "s3://b/x.by-dataset-metadata.json";

  @TempDir Path dir;

  static byte[] resource(String name) throws IOException {
    try (InputStream in = DatasetMetadataJsonTest.class.getResourceAsStream("/metadata/" + name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  static DatasetMetadata sample() {
    NavigableMap<String, IndexReference> indices = new TreeMap<>();
    indices.put("x", new IndexReference.External("ds/indices/x/2020-01-02T03%3A04%3A05.by-dataset-index.parquet"));
    indices.put("y", new IndexReference.Embedded(new TreeMap<>(Map.of("1", List.of("p=1/a"), "2", List.of("p=1/a", "p=2/b")))));
    NavigableMap<String, Map<String, String>> partitions = new TreeMap<>();
    partitions.put("p=2/b", Map.of("table", "ds/table/p=2/b.parquet"));
    partitions.put("p=1/a", Map.of("table", "ds/table/p=1/a.parquet"));
    NavigableMap<String, JsonNode> metadata = new TreeMap<>();
    metadata.put("creation_time", DatasetMetadataJson.json("\"2020-01-02T03:04:05.123456\""));
    metadata.put("user", DatasetMetadataJson.json("{\"b\":[1,2.5,null,true],\"a\":\"\\u00fc\"}"));
    return new DatasetMetadata("ds", 4, List.of("p"), partitions, indices, metadata);
  }

  @Test
  void writesCompactDeterministicJsonWithPlateausFieldNamesAndOrder() {
    String json = new String(DatasetMetadataJson.write(sample()), UTF_8);
    assertThat(json).isEqualTo(
        "{\"dataset_metadata_version\":4,\"dataset_uuid\":\"ds\","
            + "\"indices\":{\"x\":\"ds/indices/x/2020-01-02T03%3A04%3A05.by-dataset-index.parquet\","
            + "\"y\":{\"1\":[\"p=1/a\"],\"2\":[\"p=1/a\",\"p=2/b\"]}},"
            + "\"metadata\":{\"creation_time\":\"2020-01-02T03:04:05.123456\",\"user\":{\"b\":[1,2.5,null,true],\"a\":\"\\u00FC\"}},"
            + "\"partitions\":{\"p=1/a\":{\"files\":{\"table\":\"ds/table/p=1/a.parquet\"}},"
            + "\"p=2/b\":{\"files\":{\"table\":\"ds/table/p=2/b.parquet\"}}},"
            + "\"partition_keys\":[\"p\"]}");
    assertThat(DatasetMetadataJson.write(sample())).isEqualTo(DatasetMetadataJson.write(sample()));
  }

  @Test
  void theViewJoinedFromPartitionMembersIsByteForByteTheViewOfTheSameContent() {
    Map<String, String> files = new TreeMap<>(Map.of("p=2/b", "ds/table/p=2/b.parquet", "p=1/a",
        "ds/table/p=1/a.parquet", "p=10/c", "ds/table/p=10/c.parquet", "p=1/d", "ds/table/p=1/d.parquet",
        "p=\u00fc/e", "ds/table/p=\u00fc/e.parquet"));
    Map<String, String> indices = Map.of("x", "ds/indices/x/1.by-dataset-index.parquet");
    Map<String, JsonNode> metadata = Map.of("z", DatasetMetadataJson.json("[1, 2.5, \"\\u00fc\"]"),
        "a", DatasetMetadataJson.json("12345678901"), "partitions", DatasetMetadataJson.json("{}"));
    // One part per physical partition, in label order: p=1 (two files), p=10, p=2, p=ü.
    List<byte[]> partitions = new ArrayList<>();
    for (String partition : List.of("p=1/", "p=10/", "p=2/", "p=\u00fc/")) {
      partitions.add(DatasetMetadataJson.partitionMembers(files.entrySet().stream()
          .filter(file -> file.getKey().startsWith(partition)).toList()));
    }
    byte[] joined = DatasetMetadataJson.write("ds", List.of("p"), partitions, indices, metadata);
    assertThat(new String(joined, UTF_8))
        .isEqualTo(new String(DatasetMetadataJson.write(DatasetMetadata.of("ds", List.of("p"), files, indices,
            metadata)), UTF_8))
        .contains("\"p=\\u00FC/e\":{\"files\":{\"table\":\"ds/table/p=\\u00FC/e.parquet\"}}");
    assertThat(DatasetMetadataJson.write("ds", List.of(), List.of(), Map.of(), Map.of()))
        .isEqualTo(DatasetMetadataJson.write(DatasetMetadata.of("ds", List.of(), Map.of(), Map.of(), Map.of())));
  }

  @Test
  void emptyIndicesAndMetadataAreLeftOutAsPlateauDoes() {
    DatasetMetadata empty = DatasetMetadata.of("ds", List.of(), Map.of(), Map.of(), Map.of());
    assertThat(new String(DatasetMetadataJson.write(empty), UTF_8))
        .isEqualTo("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"ds\",\"partitions\":{},\"partition_keys\":[]}");
  }

  @Test
  void roundTripKeepsEverything() {
    DatasetMetadata original = sample();
    assertThat(DatasetMetadataJson.read(DatasetMetadataJson.write(original), LOCATION)).isEqualTo(original);
  }

  @Test
  void pythonsJsonReaderSeesTheDocumentPlateauWould() throws IOException {
    Path file = dir.resolve("ds.by-dataset-metadata.json");
    Files.write(file, DatasetMetadataJson.write(sample()));
    String script = String.join("\n",
        "import json, sys",
        "doc = json.load(open(sys.argv[1], encoding='utf-8'))",
        "expected = {'dataset_metadata_version': 4, 'dataset_uuid': 'ds',",
        "  'indices': {'x': 'ds/indices/x/2020-01-02T03%3A04%3A05.by-dataset-index.parquet',",
        "              'y': {'1': ['p=1/a'], '2': ['p=1/a', 'p=2/b']}},",
        "  'metadata': {'creation_time': '2020-01-02T03:04:05.123456', 'user': {'b': [1, 2.5, None, True], 'a': '\\u00fc'}},",
        "  'partitions': {'p=1/a': {'files': {'table': 'ds/table/p=1/a.parquet'}},",
        "                 'p=2/b': {'files': {'table': 'ds/table/p=2/b.parquet'}}},",
        "  'partition_keys': ['p']}",
        "assert doc == expected, doc",
        "assert list(doc) == ['dataset_metadata_version', 'dataset_uuid', 'indices', 'metadata', 'partitions', 'partition_keys'], list(doc)",
        "print('ok')",
        "");
    assertThat(Python.run(script, file.toString())).isEqualTo("ok\n");
  }

  @Test
  void readsADatasetAsPlateauWritesIt() throws IOException {
    DatasetMetadata ds = DatasetMetadataJson.read(resource("plateau-sales.by-dataset-metadata.json"), LOCATION);
    assertThat(ds.uuid()).isEqualTo("sales");
    assertThat(ds.metadataVersion()).isEqualTo(4);
    assertThat(ds.partitionKeys()).containsExactly("day", "region");
    assertThat(ds.partitions()).hasSize(3);
    assertThat(ds.fileKeys()).containsEntry(
        "day=2024-05-06/region=EU%20West/3d1f0c2b9a8e4d7c6b5a49382716f5e4",
        "sales/table/day=2024-05-06/region=EU%20West/3d1f0c2b9a8e4d7c6b5a49382716f5e4.parquet");
    assertThat(ds.externalIndexKeys()).containsExactly(Map.entry("customer",
        "sales/indices/customer/2024-05-06T07%3A08%3A09.101112%2B00%3A00.by-dataset-index.parquet"));
    assertThat(ds.metadata().get("creation_time").textValue()).isEqualTo("2024-05-06T07:08:09.101112+00:00");
    assertThat(ds.metadata().get("nested").get("\u00fcber").textValue()).isEqualTo("caf\u00e9");
    assertThat(ds.metadata().get("nested").get("values").toString()).isEqualTo("[1,2.5,null,true]");
    for (String label : ds.partitions().keySet()) {
      assertThat(DatasetKeys.dataFileKey(ds.uuid(), PartitionLabel.parse(label, List.of(
              PartitionValuesTest.field("day", new org.apache.arrow.vector.types.pojo.ArrowType.Date(
                  org.apache.arrow.vector.types.DateUnit.DAY)),
              PartitionValuesTest.field("region", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE)))))
          .isEqualTo(ds.fileKeys().get(label));
    }
  }

  @Test
  void readsKartothekCubeMetadata() throws IOException {
    DatasetMetadata seed = DatasetMetadataJson.read(resource("kartothek-cube-seed.by-dataset-metadata.json"), LOCATION);
    assertThat(seed.uuid()).isEqualTo("weather++seed");
    assertThat(CubeMetadataKeys.isSeed(seed)).isTrue();
    assertThat(CubeMetadataKeys.readSpec(seed)).isEqualTo(
        CubeSpec.of("weather", List.of("city", "sensor"), List.of("country")));
    assertThat(seed.indices().keySet()).containsExactly("city", "sensor");
  }

  @Test
  void readsEmbeddedIndicesAsPlateauTestsWriteThem() throws IOException {
    DatasetMetadata ds = DatasetMetadataJson.read(resource("plateau-embedded-index.by-dataset-metadata.json"), LOCATION);
    assertThat(ds.indices()).containsExactly(Map.entry("p_id",
        new IndexReference.Embedded(new TreeMap<>(Map.of("1", List.of("part_1"))))));
    assertThat(ds.partitions()).containsExactly(Map.entry("part_1", Map.of("core", "file.parquet")));
    assertThat(ds.fileKeys()).containsExactly(Map.entry("part_1", "file.parquet"));
  }

  @Test
  void missingPartitionKeysAreTakenFromTheFirstFileKeyAsPlateauDoes() throws IOException {
    DatasetMetadata ds = DatasetMetadataJson.read(resource("plateau-without-partition-keys.by-dataset-metadata.json"), LOCATION);
    assertThat(ds.partitionKeys()).containsExactly("p", "q");
    assertThat(DatasetMetadataJson.read(
            "{\"dataset_metadata_version\":4,\"dataset_uuid\":\"u\",\"partitions\":{\"a\":{\"files\":{}}},\"partition_keys\":null}"
                .getBytes(UTF_8), LOCATION).partitionKeys())
        .isEmpty();
  }

  @Test
  void loadsFromAStoreFallingBackToMsgpack() throws IOException {
    try (ObjectStore store = new LocalObjectStore(dir)) {
      assertThat(DatasetMetadata.load(store, "ds")).isEmpty();
      store.put(DatasetKeys.metadataMsgpackKey("ds"), DatasetMetadataMsgpack.write(sample()));
      assertThat(DatasetMetadata.load(store, "ds")).contains(sample());
      store.put(DatasetKeys.metadataJsonKey("ds"), "{".getBytes(UTF_8));
      assertThatThrownBy(() -> DatasetMetadata.load(store, "ds"))
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining("Cannot read dataset metadata " + store.url())
          .hasMessageContaining("ds.by-dataset-metadata.json: invalid JSON");
    }
  }

  @Test
  void unsupportedVersionNamesTheLocationAndTheSupportedVersion() {
    assertCorrupt("{\"dataset_metadata_version\":5,\"dataset_uuid\":\"x\",\"partitions\":{}}",
        "dataset_metadata_version 5 is not supported (supported: 4)");
    assertThatThrownBy(() -> read("{\"dataset_metadata_version\":5,\"dataset_uuid\":\"x\",\"partitions\":{}}"))
        .hasMessage("Cannot read dataset metadata s3://b/x.by-dataset-metadata.json:"
            + " dataset_metadata_version 5 is not supported (supported: 4)");
    assertCorrupt("{\"dataset_metadata_version\":3,\"dataset_uuid\":\"x\",\"partitions\":{}}",
        "dataset_metadata_version 3 is not supported");
  }

  @Test
  void malformedDocumentsAreCorrupt() {
    assertCorrupt("", "the document is empty");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uu", "invalid JSON");
    assertCorrupt("{\"dataset_metadata_version\":4}xyz", "invalid JSON");
    assertCorrupt("not json", "invalid JSON");
    assertCorrupt("[1,2]", "the document is a list, expected an object");
    assertCorrupt("{\"dataset_uuid\":\"x\",\"partitions\":{}}", "required field dataset_metadata_version is missing");
    assertCorrupt("{\"dataset_metadata_version\":4,\"partitions\":{}}", "required field dataset_uuid is missing");
    assertCorrupt("{\"dataset_metadata_version\":\"4\",\"dataset_uuid\":\"x\",\"partitions\":{}}",
        "field dataset_metadata_version is a string (\"4\"), expected an integer");
    assertCorrupt("{\"dataset_metadata_version\":4.0,\"dataset_uuid\":\"x\",\"partitions\":{}}",
        "field dataset_metadata_version is a number (4.0), expected an integer");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":7,\"partitions\":{}}",
        "field dataset_uuid is a number (7), expected a string");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"a.b\",\"partitions\":{}}",
        "dataset_uuid 'a.b' is not a valid uuid");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\"}", "field partitions is missing");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":[]}",
        "field partitions is a list, expected an object");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{\"a\":\"ext\"}}",
        "field partitions.a is a string: plateau's multi-file metadata is not supported");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{\"a\":{\"files\":[]}}}",
        "field partitions.a.files is a list, expected an object");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{\"a\":{\"files\":{\"table\":1}}}}",
        "field partitions.a.files.table is a number (1), expected a string");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{\"a\":{\"files\":{\"t1\":\"k1\",\"t2\":\"k2\"}}}}",
        "partition a has tables [t1, t2], plateau 4 datasets have one table");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{},\"partition_keys\":\"p\"}",
        "field partition_keys is a string (\"p\"), expected a list of strings");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{},\"partition_keys\":[1]}",
        "field partition_keys is a list, expected a list of strings");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{},\"indices\":{\"c\":3}}",
        "field indices.c is a number (3), expected a string (index file key) or an object (embedded index)");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{},\"indices\":{\"c\":{\"1\":\"a\"}}}",
        "field indices.c.1 is a string (\"a\"), expected a list of strings");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{},\"indices\":[]}",
        "field indices is a list, expected an object");
    assertCorrupt("{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partitions\":{},\"metadata\":null}",
        "field metadata is null, expected an object");
  }

  @Test
  void labelsMustCarryThePartitionKeysInOrder() {
    String doc = "{\"dataset_metadata_version\":4,\"dataset_uuid\":\"x\",\"partition_keys\":[\"p\",\"q\"],"
        + "\"partitions\":{\"%s\":{\"files\":{\"table\":\"x/table/%s.parquet\"}}}}";
    assertCorrupt(doc.formatted("p=1/f", "p=1/f"), "partition label p=1/f does not have the partition keys [p, q]");
    assertCorrupt(doc.formatted("q=1/p=1/f", "q=1/p=1/f"), "partition label q=1/p=1/f does not have the partition keys");
    assertCorrupt(doc.formatted("p=1/q=1/r=1/f", "p=1/q=1/r=1/f"), "partition label p=1/q=1/r=1/f");
    assertCorrupt(doc.formatted("p=1/q=1/", "p=1/q=1/"), "partition label p=1/q=1/ does not");
    assertThat(read(doc.formatted("p=1/q=1/f", "p=1/q=1/f")).partitions()).containsKey("p=1/q=1/f");
  }

  private static DatasetMetadata read(String json) {
    return DatasetMetadataJson.read(json.getBytes(UTF_8), LOCATION);
  }

  private static void assertCorrupt(String json, String reason) {
    assertThatThrownBy(() -> read(json))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageStartingWith("Cannot read dataset metadata " + LOCATION + ": ")
        .hasMessageContaining(reason);
  }
}
