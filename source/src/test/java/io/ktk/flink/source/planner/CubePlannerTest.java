package io.ktk.flink.source.planner;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans of the walk-through of Kartothek's query system and of the rules it leaves to the implementation. */
class CubePlannerTest {
  private static final Field P = field("P", new ArrowType.Int(64, true));
  private static final Field Q = field("Q", new ArrowType.Int(64, true));
  private static final Field I1 = field("I1", new ArrowType.Int(64, true));
  private static final Field I2 = field("I2", new ArrowType.Int(64, true));
  private static final Field X = field("X", new ArrowType.Int(64, true));
  private static final CubeSpec SPEC = new CubeSpec("walk", List.of("I1", "I2"), List.of("P", "Q"), "seed", new TreeSet<>());

  @TempDir Path dir;
  ObjectStore store;
  CubeFixture cube;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
    cube = new CubeFixture(store, SPEC);
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private static Map<String, List<List<Object>>> files(Object... idsAndRows) {
    Map<String, List<List<Object>>> files = new LinkedHashMap<>();
    for (int i = 0; i < idsAndRows.length; i += 2) {
      files.put((String) idsAndRows[i], List.of((List<Object>) idsAndRows[i + 1]));
    }
    return files;
  }

  /** One line per group: key, then per partition its path and each dataset's file ids (keys-only ones marked ~). */
  private static String render(QueryPlan plan) {
    List<String> lines = new ArrayList<>();
    for (QueryGroup group : plan.groups()) {
      StringBuilder line = new StringBuilder(group.key().toString());
      for (GroupPartition partition : group.partitions()) {
        line.append(' ').append(partition.path());
        partition.files().forEach((id, files) -> line.append(' ').append(id).append(files.stream()
            .map(f -> (f.keysOnly() ? "~" : "") + f.label().substring(f.label().lastIndexOf('/') + 1))
            .collect(Collectors.joining(", ", "[", "]"))));
      }
      lines.add(line.toString());
    }
    return String.join("\n", lines);
  }

  private void writeWalkThroughCube(long... enrichX) throws IOException {
    cube.dataset("seed", new Schema(List.of(P, Q, I1, I2)), "I1", "I2").commitFiles(files(
        "uuid1", row(0L, 0L, 1L, 1L),
        "uuid2", row(0L, 1L, 2L, 1L),
        "uuid3", row(0L, 1L, 3L, 1L),
        "uuid4", row(1L, 0L, 4L, 1L),
        "uuid5", row(1L, 0L, 5L, 2L)));
    cube.dataset("enrich", new Schema(List.of(P, Q, I1, X)), "X").commitFiles(files(
        "uuid6", row(0L, 0L, 1L, enrichX[0]),
        "uuid7", row(0L, 1L, 2L, enrichX[1]),
        "uuid8", row(1L, 0L, 4L, enrichX[2]),
        "uuid9", row(1L, 0L, 5L, enrichX[3]),
        "uuid0", row(9L, 0L, 1L, enrichX[4])));
  }

  @Test
  void seedWalkThroughPreConditionsAlignmentAndRegroupingByPartitionBy() throws IOException {
    writeWalkThroughCube(1, 1, 1, 1, 1);

    QueryPlan plan = CubeSnapshot.latest(store, "walk").plan(CubeQuery.builder()
        .where("I1 > 1").partitionBy("I2").columns("P", "Q", "I1", "I2", "X").build());

    // I1 > 1 drops uuid1 (and with it partition P=0/Q=0); P=9/Q=0 exists in enrich only; enrich is
    // left-joined (its payload is only returned); each I2 value is a group.
    assertThat(render(plan)).isEqualTo("""
        [1] P=0/Q=1 seed[uuid2, uuid3] enrich[uuid7] P=1/Q=0 seed[uuid4] enrich[uuid8, uuid9]
        [2] P=1/Q=0 seed[uuid5] enrich[uuid8, uuid9]""");
    assertThat(plan.query().dataset("enrich").role()).isEqualTo(DatasetRole.ENRICHMENT);
    assertThat(plan.versions()).containsOnlyKeys("seed", "enrich");
  }

  @Test
  void withoutPartitionByEveryPhysicalPartitionOfTheSeedIsAGroup() throws IOException {
    writeWalkThroughCube(1, 1, 1, 1, 1);

    QueryPlan plan = CubeSnapshot.latest(store, "walk").plan(CubeQuery.builder().columns("P", "X").build());

    assertThat(render(plan)).isEqualTo("""
        [0, 0] P=0/Q=0 seed[uuid1] enrich[uuid6]
        [0, 1] P=0/Q=1 seed[uuid2, uuid3] enrich[uuid7]
        [1, 0] P=1/Q=0 seed[uuid4, uuid5] enrich[uuid8, uuid9]""");
  }

  @Test
  void restrictedDatasetIsInnerJoinedSoPartitionsWithoutQualifyingFilesAreDropped() throws IOException {
    writeWalkThroughCube(5, -1, 5, -1, 5);

    QueryPlan plan = CubeSnapshot.latest(store, "walk").plan(CubeQuery.builder()
        .where("I1 > 1 and X > 0").partitionBy("I2").columns("P", "Q", "I1", "I2", "X").build());

    // uuid7 and uuid9 fail X > 0 by the index; uuid9 stays for its keys (it may hold newer rows of cells in uuid8)
    assertThat(plan.query().dataset("enrich").role()).isEqualTo(DatasetRole.RESTRICTED);
    assertThat(render(plan)).isEqualTo("""
        [1] P=1/Q=0 seed[uuid4] enrich[uuid8, ~uuid9]
        [2] P=1/Q=0 seed[uuid5] enrich[uuid8, ~uuid9]""");
  }

  @Test
  void datasetsTheQueryDoesNotNeedAreNotRead() throws IOException {
    writeWalkThroughCube(1, 1, 1, 1, 1);

    QueryPlan plan = CubeSnapshot.latest(store, "walk").plan(CubeQuery.builder().columns("P", "I1").build());

    assertThat(plan.query().datasets()).extracting(DatasetRead::datasetId).containsExactly("seed");
    assertThat(plan.versions()).containsOnlyKeys("seed");
  }

  @Test
  void aCellRewrittenWithAFailingValueIsNotReturnedAndOlderFailingFilesAreNotRead() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, Q, I1, I2)), "I1").commit(List.of(row(0L, 0L, 1L, 1L), row(0L, 0L, 2L, 1L)));
    CubeFixture.DatasetWriter enrich = cube.dataset("enrich", new Schema(List.of(P, Q, I1, I2, X)), "X");
    enrich.commitFiles(files("a0", row(0L, 0L, 1L, 1L, -2L)));
    enrich.commitFiles(files("a1", row(0L, 0L, 1L, 1L, 5L)));
    enrich.commitFiles(files("a2", row(0L, 0L, 1L, 1L, -1L)));
    enrich.commitFiles(files("a3", row(0L, 0L, 2L, 1L, 7L)));

    QueryPlan plan = CubeSnapshot.latest(store, "walk").plan(CubeQuery.builder().where("X > 0").columns("I1", "I2", "X").build());

    // a0 is older than every qualifying file: it cannot hide a qualifying row, so it is not read;
    // a2 qualifies for nothing but holds the newest row of cell I1=1, so it is read for its keys.
    assertThat(render(plan)).isEqualTo("[0, 0] P=0/Q=0 seed[f00000] enrich[a1, ~a2, a3]");
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, plan).rows().forEachRemaining(rows::add);
    // The last-written row of I1=1 says X = -1, so I1=1 is not returned. (Kartothek filters rows
    // while it loads them, before it keeps the last row of a cell, and would return X = 5.)
    assertThat(rows).containsExactly(row(2L, 1L, 7L));
  }
}
