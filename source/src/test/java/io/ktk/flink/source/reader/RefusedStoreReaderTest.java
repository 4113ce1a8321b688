package io.ktk.flink.source.reader;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.store.StoreOptions;
import io.ktk.flink.state.store.StoreRefusedException;
import io.ktk.flink.state.testing.S3Proxy;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reader whose keys the store refuses (a task on a machine with other keys than the client's)
 * fails so that the job does not restart; other store failures stay retriable.
 */
class RefusedStoreReaderTest {
  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  @Test
  void aRefusedReadSuppressesRestarts() throws Exception {
    String url = S3.url("reader-refused");
    CubeQuery query = CubeQuery.all();
    CubeSplit split;
    try (ObjectStore store = ObjectStores.open(url, S3.options())) {
      Field p = field("p", new ArrowType.Int(64, true));
      Field x = field("x", new ArrowType.Int(64, true));
      new CubeFixture(store, CubeSpec.of("sales", List.of("x"), List.of("p")))
          .dataset("seed", new Schema(List.of(p, x)), "x").commit(List.of(Arrays.asList(1L, 1L)));
      split = CubeSplits.of(CubeSnapshot.latest(store, "sales").plan(query), "", 16, 1).get(0);
    }
    Map<String, String> wrong = new HashMap<>(S3.options());
    wrong.put(StoreOptions.SECRET_ACCESS_KEY, "not-the-secret");

    try (CubeSplitReader<Row> reader = new CubeSplitReader<>(new QuerySettings(url, wrong, "sales", query),
        RecordFormat.ROWS, new SimpleCounter())) {
      reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
      assertThatThrownBy(reader::fetch)
          .isInstanceOf(SuppressRestartsException.class)
          .hasRootCauseInstanceOf(software.amazon.awssdk.services.s3.model.S3Exception.class)
          .satisfies(e -> assertThat(e.getCause()).isInstanceOf(StoreRefusedException.class)
              .hasMessageContaining("s3://ktk-test/reader-refused")
              .hasMessageContaining("403 SignatureDoesNotMatch"));
    }
  }
}
