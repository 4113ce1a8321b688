package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.config.UnknownOptionException;
import io.ktk.flink.state.store.InvalidStoreUrlException;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.store.StoreOptions;
import io.ktk.flink.state.store.StoreRefusedException;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration that cannot work fails where it is written (the builder), or, where only the task
 * can tell, fails the job at once instead of restarting it forever.
 */
class FailFastTest {
  private static final AtomicInteger OPENS = new AtomicInteger();

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir
  Path dir;

  @Test
  void aMisspeltStoreOptionFailsInTheBuilderNamingTheClosestOption() {
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store("s3://bucket/data", Map.of("regoin", "eu-west-1")))
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageStartingWith("Cannot open store 's3://bucket/data': unknown option 'regoin' (did you mean "
            + "'region'?)");
    assertThatThrownBy(() -> KartothekCubeSink.forCube("sales")
        .store("s3://bucket/data", Map.of("endpoint", "localhost:9000")))
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageContaining("option endpoint is 'localhost:9000'; use an http:// or https:// URL");
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store("s3://bucket/data", Map.of("access-key-id", "AKIA")))
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageContaining("option secret-access-key is missing");
  }

  @Test
  void aMisspeltOptionAsTextFailsNamingTheClosestOption() {
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE).options(Map.of(
        "store", "file:///tmp/x", "dataset", "events", "index-colums", "c")))
        .isInstanceOfSatisfying(UnknownOptionException.class,
            e -> assertThat(e.closest()).contains("index-columns"))
        .hasMessageStartingWith("Cannot configure the Kartothek sink: unknown option 'index-colums' (did you mean "
            + "'index-columns'?)");
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE).options(Map.of(
        "store", "s3://bucket/data", "store.regoin", "eu-west-1", "dataset", "events")))
        .isInstanceOf(UnknownOptionException.class)
        .hasMessageContaining("unknown option 'store.regoin' (did you mean 'store.region'?)");
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE).options(Map.of("store.region", "x")))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("store options [region] are given without the option 'store'");
    // cube options belong to the cube sink's builder, and 'dataset' does not
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE).options(Map.of("dimension-columns", "c")))
        .isInstanceOf(UnknownOptionException.class)
        .hasMessageContaining("unknown option 'dimension-columns'");
    assertThatThrownBy(() -> KartothekCubeSink.forCube("sales").options(Map.of("dataset", "x")))
        .isInstanceOf(UnknownOptionException.class)
        .hasMessageContaining("unknown option 'dataset'");
  }

  @Test
  void buildChecksPartitioningAndIndicesAgainstTheCommittedDataset() throws Exception {
    StreamExecutionEnvironment env = Jobs.batch(1);
    sink().partitionBy("p").indexBy("c").build().addTo(env.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), 20, TestRows.TYPE_INFO), WatermarkStrategy.noWatermarks(),
        "rows"));
    env.execute("creates the dataset");

    assertThatThrownBy(() -> sink().partitionBy("s").build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot write to dataset 'events': it is partitioned by [p] but the sink is partitioned by [s]");
    assertThatThrownBy(() -> sink().partitionBy("p").indexBy("v").build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column 'v' is not indexed (indexed: [c])");
    // what fits builds; the dataset's own index on c is kept without naming it
    assertThat(sink().partitionBy("p").build().config().partitionColumns()).containsExactly("p");
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void aStoreOnlyTheTaskCanRefuseFailsTheJobWithoutRestarts() {
    OPENS.set(0);
    ObjectStoreFactory refusing = () -> {
      OPENS.incrementAndGet();
      throw new InvalidStoreUrlException("Cannot open store 'vault://x': the vault refuses the role");
    };
    KartothekSink sink = KartothekSink.forRowData(TestRows.ROW_TYPE).store(refusing).dataset("events").build();
    int opensAtBuild = OPENS.getAndSet(0);
    assertThat(opensAtBuild).isEqualTo(1);
    StreamExecutionEnvironment env = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "parallelism.default", "1",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "1000",
        "restart-strategy.fixed-delay.delay", "10ms"));
    env.fromSource(new DataGeneratorSource<>(TestRows.generator(), 10, TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows").sinkTo(sink);
    assertThatThrownBy(() -> env.execute("store refused"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, InvalidStoreUrlException.class)).isPresent());
    // one writer and at most the committer tried; no restart tried again
    assertThat(OPENS.get()).isBetween(1, 2);
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void credentialsThatOnlyTheTaskHasWrongFailTheJobWithoutRestarts() {
    OPENS.set(0);
    // the client that builds the job holds good keys; the tasks (another machine's role) do not
    Map<String, String> good = new HashMap<>(S3.options());
    Map<String, String> wrong = new HashMap<>(good);
    wrong.put(StoreOptions.SECRET_ACCESS_KEY, "not-the-secret");
    String url = S3.url("wrong-keys");
    ObjectStoreFactory keysOnlyAtBuild =
        () -> ObjectStores.open(url, OPENS.getAndIncrement() == 0 ? good : wrong);
    KartothekSink sink = KartothekSink.forRowData(TestRows.ROW_TYPE).store(keysOnlyAtBuild).dataset("events").build();
    StreamExecutionEnvironment env = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "parallelism.default", "1",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "1000",
        "restart-strategy.fixed-delay.delay", "10ms"));
    env.fromSource(new DataGeneratorSource<>(TestRows.generator(), 10, TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows").sinkTo(sink);
    assertThatThrownBy(() -> env.execute("keys refused"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, StoreRefusedException.class))
            .hasValueSatisfying(refused -> assertThat(refused)
                .hasMessageContaining("s3://ktk-test/wrong-keys")
                .hasMessageContaining("403 SignatureDoesNotMatch")));
    // the build, then one writer and at most the committer; no restart opened the store again
    assertThat(OPENS.get()).isBetween(2, 3);
  }

  @Test
  void theCubeSinkCannotBeWiredWithSinkTo() {
    // stream.sinkTo(cube) would skip the tagging, keying and validation of addTo: it does not compile
    assertThat(Sink.class.isAssignableFrom(KartothekCubeSink.class)).isFalse();
  }

  private KartothekSinkBuilder sink() {
    return KartothekSink.forRowData(TestRows.ROW_TYPE).store(dir.toUri().toString()).dataset("events");
  }
}
