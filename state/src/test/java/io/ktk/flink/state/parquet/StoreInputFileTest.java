package io.ktk.flink.state.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreInputFileTest {
  @TempDir Path dir;

  @Test
  void randomSeeksAndReadsReturnTheObjectsBytes() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    byte[] data = new byte[300_000];
    random.nextBytes(data);
    CountingObjectStore store = new CountingObjectStore(new LocalObjectStore(dir));
    store.put("blob", data);
    StoreInputFile file = new StoreInputFile(store, "blob", -1, 4096);
    assertThat(file.getLength()).isEqualTo(data.length);
    try (SeekableInputStream in = file.newStream()) {
      for (int i = 0; i < 2000; i++) {
        long pos = random.nextInt(data.length);
        int len = random.nextInt(i % 10 == 0 ? 20_000 : 300);
        len = (int) Math.min(len, data.length - pos);
        in.seek(pos);
        String what = "seed " + seed + ", read " + i + ": " + len + " bytes at " + pos;
        switch (i % 4) {
          case 0: {
            byte[] bytes = new byte[len];
            in.readFully(bytes);
            assertThat(bytes).as(what).isEqualTo(Arrays.copyOfRange(data, (int) pos, (int) pos + len));
            break;
          }
          case 1: {
            ByteBuffer buffer = ByteBuffer.allocateDirect(len);
            in.readFully(buffer);
            buffer.flip();
            byte[] bytes = new byte[len];
            buffer.get(bytes);
            assertThat(bytes).as(what).isEqualTo(Arrays.copyOfRange(data, (int) pos, (int) pos + len));
            break;
          }
          case 2: {
            int b = in.read();
            assertThat(b).as(what).isEqualTo(data[(int) pos] & 0xFF);
            break;
          }
          default: {
            byte[] bytes = new byte[len];
            int n = in.read(bytes, 0, len);
            assertThat(n).as(what).isEqualTo(len);
            assertThat(bytes).as(what).isEqualTo(Arrays.copyOfRange(data, (int) pos, (int) pos + len));
          }
        }
        assertThat(in.getPos()).as(what).isEqualTo(pos + (i % 4 == 2 ? 1 : len));
      }
    }
    assertThat(store.wholeReads).as("whole-object reads").isZero();
  }

  @Test
  void readingPastTheEndFailsWithTheKeyAndAMissingObjectIsNamed() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    store.put("small", new byte[10]);
    try (SeekableInputStream in = new StoreInputFile(store, "small").newStream()) {
      in.seek(8);
      assertThatThrownBy(() -> in.readFully(new byte[5])).isInstanceOf(EOFException.class).hasMessageContaining("small");
      assertThat(in.read(new byte[5], 0, 5)).isEqualTo(2);
      assertThat(in.read()).isEqualTo(-1);
    }
    assertThatThrownBy(() -> new StoreInputFile(store, "missing").getLength())
        .isInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("missing");
  }

  @Test
  void aTailReadFetchesTheLastWindowOnceAndLaterSmallReadsComeFromIt() throws IOException {
    byte[] data = new byte[100_000];
    new Random(7).nextBytes(data);
    CountingObjectStore store = new CountingObjectStore(new LocalObjectStore(dir));
    store.put("blob", data);
    try (SeekableInputStream in = new StoreInputFile(store, "blob", data.length, 8192).newStream()) {
      in.seek(data.length - 8);
      in.readFully(new byte[8]);
      in.seek(data.length - 4000);
      in.readFully(new byte[3992]);
      assertThat(store.rangeReads).as("range requests for footer-like reads").isEqualTo(1);
      assertThat(store.bytesRead).isEqualTo(8192);

      in.seek(1000);
      in.readFully(new byte[50_000]);
      assertThat(store.rangeReads).as("a large read is one request of its own").isEqualTo(2);
      assertThat(store.bytesRead).isEqualTo(8192 + 50_000);
    }
  }

  @Test
  void readingOneColumnOfALargeFileFetchesOnlyItsChunksAndTheFooter() throws IOException {
    CountingObjectStore store = new CountingObjectStore(new LocalObjectStore(dir));
    Schema schema = new Schema(List.of(
        Field.nullable("i", new ArrowType.Int(64, true)), Field.nullable("text", ArrowType.Utf8.INSTANCE)));
    Random random = new Random(11);
    ParquetWriteOptions options = ParquetWriteOptions.defaults().withRowGroupSizeBytes(1 << 20);
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, "big.parquet", schema, Map.of(), options)) {
      for (long i = 0; i < 100_000; i++) {
        writer.write(List.of(i, Long.toString(random.nextLong(), 36) + Long.toString(random.nextLong(), 36)));
      }
    }
    long size = store.head("big.parquet").orElseThrow().size();
    store.reset();
    long sum = 0;
    try (ParquetRowsReader reader = ParquetRowsReader.open(new StoreInputFile(store, "big.parquet", size, 64 << 10))) {
      var rows = reader.rows(List.of("i"));
      while (rows.hasNext()) {
        sum += (Long) rows.next().get(0);
      }
    }
    assertThat(sum).isEqualTo(99_999L * 100_000L / 2);
    assertThat(store.wholeReads).isZero();
    assertThat(store.bytesRead).as("bytes fetched of a " + size + " byte file").isLessThan(size / 3);
  }

  @Test
  void aSmallFileIsReadInOneRangeAndItsFooterOnceForACache() throws IOException {
    CountingObjectStore store = new CountingObjectStore(new LocalObjectStore(dir));
    Schema schema = new Schema(List.of(
        Field.nullable("i", new ArrowType.Int(64, true)), Field.nullable("text", ArrowType.Utf8.INSTANCE)));
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, "small.parquet", schema, Map.of(),
        ParquetWriteOptions.defaults())) {
      for (long i = 0; i < 1000; i++) {
        writer.write(List.of(i, "t" + i % 7));
      }
    }
    long size = store.head("small.parquet").orElseThrow().size();
    FooterCache footers = new FooterCache(2);
    for (int round = 0; round < 3; round++) {
      store.reset();
      try (ParquetRowsReader reader = ParquetRowsReader.open(
          new StoreInputFile(store, "small.parquet", size, StoreInputFile.DEFAULT_READ_AHEAD), true, footers)) {
        assertThat(reader.readColumns(0, List.of("text", "i")).get(1).get(999)).isEqualTo(999L);
      }
      // footer and column chunks come from the one read of the whole (small) file
      assertThat(store.rangeReads).as("round %d", round).isEqualTo(1);
      assertThat(store.bytesRead).as("round %d", round).isEqualTo(size);
    }
    assertThat(footers.misses()).isEqualTo(1);
    assertThat(footers.hits()).isEqualTo(2);

    // the same name with another size is another file: its own footer, never the cached one
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, "small.parquet", schema, Map.of(),
        ParquetWriteOptions.defaults())) {
      writer.write(List.of(7L, "other"));
    }
    long otherSize = store.head("small.parquet").orElseThrow().size();
    assertThat(otherSize).isNotEqualTo(size);
    try (ParquetRowsReader reader = ParquetRowsReader.open(
        new StoreInputFile(store, "small.parquet", otherSize, StoreInputFile.DEFAULT_READ_AHEAD), true, footers)) {
      assertThat(reader.rowCount()).isEqualTo(1);
    }
    assertThat(footers.misses()).isEqualTo(2);
    assertThat(footers.size()).isEqualTo(2);
  }
}
