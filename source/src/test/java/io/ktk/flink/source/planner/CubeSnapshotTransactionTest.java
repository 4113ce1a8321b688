package io.ktk.flink.source.planner;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CubeSnapshot#latest} shows a cube transaction in all its datasets or in none. */
class CubeSnapshotTransactionTest {
  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.Int(64, true));
  private static final Field W = field("w", new ArrowType.Int(64, true));
  private static final CubeSpec SPEC = CubeSpec.of("sales", List.of("x"), List.of("p"));

  @TempDir Path dir;

  @Test
  void aTransactionCommittedToTheSeedButNotYetToTheEnrichmentIsNotSeenUntilItIsRecorded() throws IOException {
    ObjectStore store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, SPEC);
    cube.dataset("seed", new Schema(List.of(P, X, V)), "x").commit(List.of(row(1L, 1L, 10L), row(1L, 2L, 20L)));
    cube.dataset("enrich", new Schema(List.of(P, X, W))).commit(List.of(row(1L, 1L, 100L)));
    assertThat(CubeSnapshot.latest(store, "sales").versions()).containsExactly(
        Map.entry("enrich", 0L), Map.entry("seed", 0L));

    // A job's checkpoint 7: the seed is committed as part of the cube transaction, the enrichment not yet.
    CommitLog seed = CommitLog.open(store, "sales++seed", CommitLogOptions.DEFAULTS);
    seed.commit(DatasetChange.append(List.of("p"), new Schema(List.of(P, X, V)),
            List.of(new DataFile("p=2/00000000000000000000000000000007", 1, 100, new Schema(List.of(X, V)))))
        .withWriter("job", 7).withCubeTransaction("sales"));

    CubeSnapshot pinned = CubeSnapshot.latest(store, "sales");
    assertThat(pinned.versions()).containsExactly(Map.entry("enrich", 0L), Map.entry("seed", 0L));
    assertThat(rows(store, pinned)).containsExactly(row(1L, 1L, 10L, 100L), row(1L, 2L, 20L, null));

    CommitLog enrich = CommitLog.open(store, "sales++enrich", CommitLogOptions.DEFAULTS);
    enrich.commit(DatasetChange.append(List.of("p"), new Schema(List.of(P, X, W)),
            List.of(new DataFile("p=2/00000000000000000000000000000008", 1, 100, new Schema(List.of(X, W)))))
        .withWriter("job", 7).withCubeTransaction("sales"));
    assertThat(CubeSnapshot.latest(store, "sales").versions()).as("not recorded yet").containsExactly(
        Map.entry("enrich", 0L), Map.entry("seed", 0L));

    CubeCommitLog.of(store, "sales").record("job", 7, Map.of("seed", 1L, "enrich", 1L));
    assertThat(CubeSnapshot.latest(store, "sales").versions()).containsExactly(
        Map.entry("enrich", 1L), Map.entry("seed", 1L));
  }

  private static List<List<Object>> rows(ObjectStore store, CubeSnapshot snapshot) {
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, snapshot.plan(CubeQuery.builder().columns("p", "x", "v", "w").build())).rows()
        .forEachRemaining(rows::add);
    return rows;
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }
}
