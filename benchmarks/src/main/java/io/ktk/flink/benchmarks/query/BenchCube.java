package io.ktk.flink.benchmarks.query;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The cube the query benchmark reads, written once per size and kept: cube {@code bench} with
 * partition column {@code p} (int64, {@value #PARTITIONS} values) and dimension column {@code x}
 * (int64, {@code rows / 10} cells per partition), three datasets, one Parquet file per partition
 * each, written with this project's Parquet writer and commit log, Snappy:
 *
 * <ul>
 *   <li>{@code seed}: every cell, payload {@code v} (double); no index on {@code x}
 *       (suppressed, as Kartothek allows: an index of 10 million distinct values helps nobody);
 *   <li>{@code enrich}: every cell, payload {@code a} uniform in [0, 1): the query keeps {@code a <
 *       0.3}, about 30% of the cells (an inner join);
 *   <li>{@code label}: half of the cells, payload {@code b} (one of 1,000 strings): left-joined.
 * </ul>
 *
 * Rows are written in a scrambled order of {@code x}, so that every reader has to sort.
 */
final class BenchCube {
  static final String NAME = "bench";
  static final int PARTITIONS = 10;
  static final CubeSpec SPEC = new CubeSpec(NAME, List.of("x"), List.of("p"), "seed", new TreeSet<>(List.of("x")));
  private static final String COMPLETE = "bench-cube-complete";
  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final ArrowType DOUBLE = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  private BenchCube() {}

  /** Writes the cube of {@code rows} seed rows into {@code store} unless the directory holds it already. */
  static void ensure(ObjectStore store, Path dir, long rows) throws Exception {
    if (Files.exists(dir.resolve(COMPLETE))) {
      return;
    }
    long perPartition = rows / PARTITIONS;
    List<Dataset> datasets = List.of(
        new Dataset("seed", field("v", DOUBLE), 1),
        new Dataset("enrich", field("a", DOUBLE), 1),
        new Dataset("label", field("b", new ArrowType.Utf8()), 2));
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
    try {
      for (Dataset dataset : datasets) {
        List<Future<DataFile>> files = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
          int partition = p;
          files.add(pool.submit(() -> writeFile(store, dataset, partition, perPartition)));
        }
        List<DataFile> written = new ArrayList<>();
        for (Future<DataFile> file : files) {
          written.add(file.get());
        }
        CommitLog log = CommitLog.open(store, SPEC.datasetUuid(dataset.id), CommitLogOptions.DEFAULTS);
        log.commit(DatasetChange.append(List.of("p"), new Schema(List.of(P, X, dataset.payload)), written)
            .withMetadata(Map.copyOf(CubeMetadataKeys.datasetMetadata(SPEC, dataset.id))));
        new PlateauPublisher().publish(log);
      }
    } finally {
      pool.shutdownNow();
    }
    Files.writeString(dir.resolve(COMPLETE), rows + "\n");
  }

  /** A dataset: its payload column, and every how-many-th cell it holds. */
  private record Dataset(String id, Field payload, int every) {}

  private static DataFile writeFile(ObjectStore store, Dataset dataset, int partition, long cells) throws IOException {
    Schema physical = new Schema(List.of(X, dataset.payload));
    PartitionLabel label = PartitionLabel.of(List.of(P), List.of((long) partition), "f" + partition);
    String key = SPEC.datasetUuid(dataset.id) + "/table/" + label + ".parquet";
    long rows = 0;
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, physical, Map.of(), ParquetWriteOptions.defaults())) {
      Object[] row = new Object[2];
      List<Object> view = Arrays.asList(row);
      long a = multiplier(cells);
      for (long i = 0; i < cells; i++) {
        long x = (a * i + 12_345L) % cells;
        if (x % dataset.every != 0) {
          continue;
        }
        row[0] = x;
        row[1] = payload(dataset.id, partition, x);
        writer.write(view);
        rows++;
      }
    }
    return new DataFile(label.toString(), rows, store.head(key).orElseThrow().size(), physical);
  }

  private static Object payload(String dataset, int partition, long x) {
    long h = mix(partition * 1_000_000_007L + x + dataset.hashCode());
    return switch (dataset) {
      case "seed" -> (h >>> 11) * 0x1.0p-53 * 100.0;
      case "enrich" -> (h >>> 11) * 0x1.0p-53;
      default -> "label-" + Long.remainderUnsigned(h, 1000);
    };
  }

  /** A multiplier coprime to {@code n}: {@code (a * i + c) mod n} then visits every value of {@code 0 .. n - 1} once. */
  static long multiplier(long n) {
    long a = Math.max(1, (long) (n * 0.6180339887));
    while (gcd(a, n) != 1) {
      a++;
    }
    return a;
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  static long mix(long x) {
    long z = x * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }
}
