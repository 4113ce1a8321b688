package io.ktk.flink.state.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page CRCs: our files carry one on every page, and a bit flipped in a page of our file or of a
 * file pyarrow wrote with checksums fails reading and verifying with {@link PageChecksumException}
 * naming file, column, row group and page, where pyarrow (with {@code page_checksum_verification})
 * agrees that the file is corrupt.
 */
class PageChecksumTest {
  private static final int ROWS = 20_000;
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("word", ArrowType.Utf8.INSTANCE),
      Field.nullable("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  @TempDir static Path dir;
  private static LocalObjectStore store;
  private static PyChecks checks;

  /** Ours (plain pages), ours (dictionaries), pyarrow's with and without checksums: each intact and with a flipped bit. */
  @BeforeAll
  static void writeFilesAndFlipBits() throws IOException {
    store = new LocalObjectStore(dir);
    ParquetWriteOptions small = ParquetWriteOptions.defaults().withPageSizeBytes(8 << 10).withRowGroupSizeBytes(64 << 10);
    write("ours.parquet", small.withDictionaryEncoding(false));
    write("ours-dictionary.parquet", small);
    Python.writePyarrowFiles(dir);
    copy("ours.parquet", "ours-flipped.parquet");
    flipBit("ours-flipped.parquet", 1, "id", 2);
    copy("ours-dictionary.parquet", "ours-dictionary-flipped.parquet");
    flipBit("ours-dictionary-flipped.parquet", 0, "word", 0);
    copy("pyarrow-crc.parquet", "pyarrow-crc-flipped.parquet");
    flipBit("pyarrow-crc-flipped.parquet", 0, "id", 1);
    checks = PyChecks.run(Python.CHECK_SCRIPT, dir.toString());
  }

  @Test
  void everyPageOfOurFilesCarriesAChecksumThatPyarrowAccepts() throws IOException {
    for (String name : List.of("ours.parquet", "ours-dictionary.parquet")) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, name)) {
        PageChecksumCount pages = reader.verifyPageChecksums();
        assertThat(pages.withoutChecksum()).as(name).isZero();
        assertThat(pages.verified()).as(name).isGreaterThan(3L * reader.rowGroups().size());
        assertThat(reader.readAll(List.of("id", "word", "v"))).as(name).hasSize(ROWS);
      }
      checks.assertOk("verified read of " + name);
    }
  }

  @Test
  void aFlippedBitInADataPageOfOurFileFailsReadingAndVerifying() throws IOException {
    assertCorrupt("ours-flipped.parquet", "id", 1, 2, "data page");
  }

  @Test
  void aFlippedBitInADictionaryPageOfOurFileFailsReadingAndVerifying() throws IOException {
    assertCorrupt("ours-dictionary-flipped.parquet", "word", 0, 0, "dictionary page");
  }

  @Test
  void aFlippedBitInAPageOfAPyarrowFileWithChecksumsFailsReadingAndVerifying() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "pyarrow-crc.parquet")) {
      assertThat(reader.verifyPageChecksums().withoutChecksum()).isZero();
    }
    assertCorrupt("pyarrow-crc-flipped.parquet", "id", 0, 1, "data page");
  }

  @Test
  void aFileWithoutChecksumsReadsUnverified() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "pyarrow-plain.parquet")) {
      PageChecksumCount pages = reader.verifyPageChecksums();
      assertThat(pages.verified()).isZero();
      assertThat(pages.withoutChecksum()).isPositive();
      List<List<Object>> rows = reader.readAll(List.of("id", "word", "v"));
      assertThat(rows).hasSize(ROWS);
      assertThat(rows.get(ROWS - 1)).containsExactly((long) ROWS - 1, "w" + (ROWS - 1) % 50, (ROWS - 1) * 0.5);
    }
  }

  private static void assertCorrupt(String name, String column, int rowGroup, int page, String kind)
      throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, name)) {
      assertThatThrownBy(reader::verifyPageChecksums)
          .isInstanceOfSatisfying(PageChecksumException.class, e -> assertNames(e, name, column, rowGroup, page, kind));
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, name)) {
      assertThatThrownBy(() -> reader.readAll(List.of("id", "word", "v")))
          .isInstanceOfSatisfying(PageChecksumException.class, e -> assertNames(e, name, column, rowGroup, page, kind));
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, name)) {
      // the vectorized path of the source and the CLI
      assertThatThrownBy(() -> reader.readColumns(rowGroup, List.of(column)))
          .isInstanceOfSatisfying(PageChecksumException.class, e -> assertNames(e, name, column, rowGroup, page, kind));
    }
    checks.assertOk("pyarrow refuses " + name);
  }

  private static void assertNames(PageChecksumException e, String name, String column, int rowGroup, int page,
      String kind) {
    assertThat(e.file()).isEqualTo(name);
    assertThat(e.column()).isEqualTo(column);
    assertThat(e.rowGroup()).isEqualTo(rowGroup);
    assertThat(e.page()).isEqualTo(page);
    assertThat(e.getMessage()).startsWith("Cannot read Parquet file " + name + ": page " + page + " (" + kind)
        .contains("of column '" + column + "' in row group " + rowGroup + " fails its checksum");
  }

  private static void write(String name, ParquetWriteOptions options) throws IOException {
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, name, SCHEMA, Map.of(), options)) {
      for (long i = 0; i < ROWS; i++) {
        writer.write(List.of(i, "w" + i % 50, i * 0.5));
      }
    }
  }

  private static void copy(String from, String to) throws IOException {
    Files.copy(dir.resolve(from), dir.resolve(to));
  }

  /**
   * Flips one bit in the middle of the stored bytes of page {@code page} of {@code column} in row
   * group {@code rowGroup}, finding the page by walking the page headers from the chunk's start.
   */
  static void flipBit(String name, int rowGroup, String column, int page) throws IOException {
    Path path = dir.resolve(name);
    ColumnChunkMetaData chunk;
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, name)) {
      chunk = reader.rowGroups().get(rowGroup).getColumns().stream()
          .filter(c -> c.getPath().toDotString().equals(column)).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(path);
    int offset = (int) chunk.getStartingPos();
    for (int i = 0; ; i++) {
      ByteArrayInputStream in = new ByteArrayInputStream(bytes, offset, bytes.length - offset);
      PageHeader header = Util.readPageHeader(in);
      int body = bytes.length - in.available();
      if (i == page) {
        bytes[body + header.getCompressed_page_size() / 2] ^= 0x10;
        break;
      }
      offset = body + header.getCompressed_page_size();
    }
    Files.write(path, bytes);
  }

  /** The Python side: pyarrow's files, and pyarrow's verdict on every file. */
  private static final class Python {
    static void writePyarrowFiles(Path dir) {
      io.ktk.flink.state.testing.Python.run(
          """
          import sys
          import pyarrow as pa, pyarrow.parquet as pq
          n = %d
          t = pa.table({"id": pa.array(range(n), pa.int64()),
                        "word": pa.array([f"w{i %% 50}" for i in range(n)]),
                        "v": pa.array([i * 0.5 for i in range(n)])})
          pq.write_table(t, sys.argv[1] + "/pyarrow-crc.parquet", write_page_checksum=True, use_dictionary=False,
                         data_page_size=16384)
          pq.write_table(t, sys.argv[1] + "/pyarrow-plain.parquet")
          """.formatted(ROWS), dir.toString());
    }

    static final String CHECK_SCRIPT =
        """
        import pyarrow.parquet as pq
        d = sys.argv[1]
        def reads(name):
            t = pq.read_table(f"{d}/{name}", page_checksum_verification=True)
            return t.num_rows == %d and t.column("id").to_pylist() == list(range(%d)), t.num_rows
        def refuses(name):
            try:
                pq.read_table(f"{d}/{name}", page_checksum_verification=True)
                return False, "pyarrow read it"
            except OSError as e:
                return "CRC" in str(e) or "checksum" in str(e).lower(), str(e)
        for name in ["ours.parquet", "ours-dictionary.parquet", "pyarrow-crc.parquet"]:
            check("verified read of " + name, lambda: reads(name))
        for name in ["ours-flipped.parquet", "ours-dictionary-flipped.parquet", "pyarrow-crc-flipped.parquet"]:
            check("pyarrow refuses " + name, lambda: refuses(name))
        """.formatted(ROWS, ROWS);
  }
}
