package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bit flipped in a data page of a file the sink wrote: {@code ktk read} and {@code ktk validate}
 * fail naming file, column, row group and page instead of returning altered values, and pyarrow,
 * verifying page checksums, agrees that the file is corrupt.
 */
class CorruptPageTest {
  private static final int ROWS = 20_000;

  @TempDir Path dir;

  @Test
  void aFlippedBitInADataPageFailsReadAndValidate() throws Exception {
    StringBuilder input = new StringBuilder();
    for (int i = 0; i < ROWS; i++) {
      input.append("{\"id\": ").append(i).append(", \"p\": \"").append((char) ('a' + i % 2)).append("\", \"v\": ")
          .append(i * 0.5).append("}\n");
    }
    Path lines = Files.writeString(dir.resolve("in.jsonl"), input);
    String url = dir.resolve("store").toUri().toString();
    KtkRun ingest = ktk("ingest", "--store", url, "--dataset", "events", "--schema", "id BIGINT, p STRING, v DOUBLE",
        "--partition-on", "p", "--input", lines.toString());
    assertThat(ingest.exitCode()).as(ingest.toString()).isZero();
    LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
    DataFile file = new LogReader(store, "events").latest().files().values().iterator().next();
    String key = file.key("events");
    assertThat(ktk("validate", "--store", url, "--dataset", "events").exitCode()).isZero();

    flipBitInFirstPage(store, key, "id");

    String where = "page 0 (data page at byte ";
    String what = "of column 'id' in row group 0 fails its checksum";
    KtkRun read = ktk("read", "--store", url, "--dataset", "events", "--format", "jsonl");
    assertThat(read.exitCode()).as(read.toString()).isEqualTo(Ktk.ERROR);
    assertThat(read.err()).contains("Cannot read Parquet file " + key + ": " + where, what);
    KtkRun validate = ktk("validate", "--store", url, "--dataset", "events");
    assertThat(validate.exitCode()).as(validate.toString()).isEqualTo(Ktk.ERROR);
    assertThat(validate.out()).contains("PROBLEM: data file " + key + ": Cannot read Parquet file " + key + ": "
        + where, what);
    String pyarrow = Python.run(
        """
        import sys, pyarrow.parquet as pq
        try:
            pq.read_table(sys.argv[1], page_checksum_verification=True)
            print("read")
        except OSError as e:
            print("refused:", e)
        """, dir.resolve("store").resolve(key).toString());
    assertThat(pyarrow).startsWith("refused:").containsIgnoringCase("crc");
  }

  /** Flips one bit in the middle of the stored bytes of the first page of {@code column} in row group 0. */
  private void flipBitInFirstPage(LocalObjectStore store, String key, String column) throws IOException {
    ColumnChunkMetaData chunk;
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, key)) {
      chunk = reader.rowGroups().get(0).getColumns().stream()
          .filter(c -> c.getPath().toDotString().equals(column)).findFirst().orElseThrow();
    }
    assertThat(chunk.hasDictionaryPage()).as("a column of distinct values is written without a dictionary").isFalse();
    Path path = dir.resolve("store").resolve(key);
    byte[] bytes = Files.readAllBytes(path);
    ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) chunk.getStartingPos(), bytes.length);
    PageHeader header = Util.readPageHeader(in);
    int body = bytes.length - in.available();
    bytes[body + header.getCompressed_page_size() / 2] ^= 0x10;
    Files.write(path, bytes);
  }
}
