package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

class DatasetMetadataMsgpackTest {
  static final String LOCATION = "s3://b/x.by-dataset-metadata.msgpack.zstd";

  @TempDir Path dir;

  @Test
  void readsWhatPythonMsgpackAndZstandardWriteAsPlateauDoes() throws IOException {
    Path file = dir.resolve("ds.by-dataset-metadata.msgpack.zstd");
    String script = String.join("\n",
        "import sys, msgpack, zstandard",
        "doc = {'dataset_metadata_version': 4, 'dataset_uuid': 'cube++seed',",
        "  'indices': {'x': 'cube++seed/indices/x/2021-03-04T05%3A06%3A07.012345.by-dataset-index.parquet',",
        "              'n': {1: ['p=1/aa'], 2: ['p=1/aa', 'p=2/bb']}},",
        "  'metadata': {'creation_time': '2021-03-04T05:06:07.012345', 'ktk_cube_dimension_columns': ['x'],",
        "               'ktk_cube_is_seed': True, 'ktk_cube_partition_columns': ['p'],",
        "               'ktk_cube_suppress_index_on': [], 'ratio': 0.25, 'big': 2**64 - 1, 'raw': b'\\x00\\xff',",
        "               'text': 'caf\\u00e9 \\U0001F600', 'none': None},",
        "  'partitions': {'p=1/aa': {'files': {'table': 'cube++seed/table/p=1/aa.parquet'}},",
        "                 'p=2/bb': {'files': {'table': 'cube++seed/table/p=2/bb.parquet'}}},",
        "  'partition_keys': ['p']}",
        "cctx = zstandard.ZstdCompressor(write_content_size=True)",
        "open(sys.argv[1], 'wb').write(cctx.compress(msgpack.packb(doc)))",
        "");
    Python.run(script, file.toString());

    DatasetMetadata ds = DatasetMetadataMsgpack.read(Files.readAllBytes(file), LOCATION);
    assertThat(ds.uuid()).isEqualTo("cube++seed");
    assertThat(ds.partitionKeys()).containsExactly("p");
    assertThat(ds.fileKeys()).containsExactly(
        Map.entry("p=1/aa", "cube++seed/table/p=1/aa.parquet"), Map.entry("p=2/bb", "cube++seed/table/p=2/bb.parquet"));
    assertThat(ds.indices()).containsEntry("n",
        new IndexReference.Embedded(new TreeMap<>(Map.of("1", List.of("p=1/aa"), "2", List.of("p=1/aa", "p=2/bb")))));
    assertThat(ds.externalIndexKeys()).containsOnlyKeys("x");
    assertThat(ds.metadata().get("ratio").doubleValue()).isEqualTo(0.25);
    assertThat(ds.metadata().get("big").bigIntegerValue().toString()).isEqualTo("18446744073709551615");
    assertThat(ds.metadata().get("raw").binaryValue()).containsExactly(0x00, 0xFF);
    assertThat(ds.metadata().get("text").textValue()).isEqualTo("caf\u00e9 \uD83D\uDE00");
    assertThat(ds.metadata().get("none").isNull()).isTrue();
    assertThat(CubeMetadataKeys.readSpec(ds)).isEqualTo(CubeSpec.of("cube", List.of("x"), List.of("p")));
  }

  @Test
  void pythonReadsWhatWeWriteAsPlateausUnpackbDoes() throws IOException {
    Path file = dir.resolve("ds.by-dataset-metadata.msgpack.zstd");
    Files.write(file, DatasetMetadataMsgpack.write(DatasetMetadataJsonTest.sample()));
    String script = String.join("\n",
        "import sys, msgpack, zstandard",
        "doc = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(open(sys.argv[1], 'rb').read()), raw=False)",
        "expected = {'dataset_metadata_version': 4, 'dataset_uuid': 'ds',",
        "  'indices': {'x': 'ds/indices/x/2020-01-02T03%3A04%3A05.by-dataset-index.parquet',",
        "              'y': {'1': ['p=1/a'], '2': ['p=1/a', 'p=2/b']}},",
        "  'metadata': {'creation_time': '2020-01-02T03:04:05.123456', 'user': {'b': [1, 2.5, None, True], 'a': '\\u00fc'}},",
        "  'partitions': {'p=1/a': {'files': {'table': 'ds/table/p=1/a.parquet'}},",
        "                 'p=2/b': {'files': {'table': 'ds/table/p=2/b.parquet'}}},",
        "  'partition_keys': ['p']}",
        "assert doc == expected, doc",
        "print('ok')",
        "");
    assertThat(Python.run(script, file.toString())).isEqualTo("ok\n");
  }

  @Test
  void roundTripKeepsEverything() {
    DatasetMetadata original = DatasetMetadataJsonTest.sample();
    assertThat(DatasetMetadataMsgpack.read(DatasetMetadataMsgpack.write(original), LOCATION)).isEqualTo(original);
  }

  @Test
  void corruptInputNamesTheLocationAndTheProblem() throws IOException {
    byte[] valid = DatasetMetadataMsgpack.write(DatasetMetadataJsonTest.sample());
    assertCorrupt(new byte[0], "not zstd-compressed");
    assertCorrupt("{\"dataset_metadata_version\":4}".getBytes(StandardCharsets.UTF_8), "not zstd-compressed");
    assertCorrupt(Arrays.copyOf(valid, valid.length / 2), "invalid zstd data");
    byte[] packed = Zstd.decompress(valid, (int) Zstd.decompressedSize(valid));
    assertCorrupt(Zstd.compress(Arrays.copyOf(packed, packed.length - 5)), "invalid msgpack");
    byte[] twoDocuments = Arrays.copyOf(packed, packed.length * 2);
    System.arraycopy(packed, 0, twoDocuments, packed.length, packed.length);
    assertCorrupt(Zstd.compress(twoDocuments), "extra data after the msgpack document");
    assertCorrupt(Zstd.compress(new byte[0]), "the document is empty");

    assertCorrupt(pack(p -> {
      p.packMapHeader(3);
      p.packString("dataset_metadata_version").packInt(5);
      p.packString("dataset_uuid").packString("x");
      p.packString("partitions").packMapHeader(0);
    }), "dataset_metadata_version 5 is not supported (supported: 4)");
    assertCorrupt(pack(p -> {
      p.packMapHeader(3);
      p.packString("dataset_metadata_version").packInt(4);
      p.packString("dataset_uuid").packString("x");
      p.packString("partitions").packExtensionTypeHeader((byte) 1, 1).writePayload(new byte[] {1});
    }), "msgpack EXTENSION values are not supported");
    assertCorrupt(pack(p -> {
      p.packMapHeader(2);
      p.packString("dataset_metadata_version").packInt(4);
      p.packString("partitions").packMapHeader(0);
    }), "required field dataset_uuid is missing");
  }

  interface Packing {
    void pack(MessageBufferPacker packer) throws IOException;
  }

  private static byte[] pack(Packing packing) throws IOException {
    try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
      packing.pack(packer);
      return Zstd.compress(packer.toByteArray());
    }
  }

  private static void assertCorrupt(byte[] bytes, String reason) {
    assertThatThrownBy(() -> DatasetMetadataMsgpack.read(bytes, LOCATION))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageStartingWith("Cannot read dataset metadata " + LOCATION + ": ")
        .hasMessageContaining(reason);
  }
}
