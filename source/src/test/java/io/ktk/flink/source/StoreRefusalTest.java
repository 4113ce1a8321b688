package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store that refuses the job's requests (wrong keys) fails a source job at once, without
 * restarts, although the restart strategy would allow many: retrying cannot fix the keys.
 */
class StoreRefusalTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(1).build());

  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));

  @AfterEach
  void forgetTheKeys() {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  @Test
  @Timeout(120)
  void keysThatOnlyTheClientBuildingTheJobHasFailTheJobWithoutRestarts(@InjectMiniCluster MiniCluster cluster)
      throws Exception {
    String url = S3.url("refused");
    try (ObjectStore store = ObjectStores.open(url, S3.options())) {
      new CubeFixture(store, CubeSpec.of("sales", List.of("x"), List.of("p")))
          .dataset("seed", new Schema(List.of(P, X)), "x").commit(List.of(Arrays.asList(1L, 1L)));
    }
    // no keys in the options: the SDK's credential chain, which the client and the cluster hold
    // differently (here: system properties, the chain's first source, changed after the build)
    Map<String, String> options = new HashMap<>(S3.options());
    options.remove(StoreOptions.ACCESS_KEY_ID);
    options.remove(StoreOptions.SECRET_ACCESS_KEY);
    System.setProperty("aws.accessKeyId", S3Proxy.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", S3Proxy.SECRET_KEY);
    KartothekSource source = KartothekSource.builder(url, "sales").storeOptions(options).build();
    assertThat(source.versions()).containsEntry("seed", 0L);
    System.setProperty("aws.secretAccessKey", "not-the-secret");

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "parallelism.default", "1",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "3",
        "restart-strategy.fixed-delay.delay", "10ms")));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "refused").sinkTo(new DiscardingSink<Row>());
    JobClient job = env.executeAsync("source refused");
    assertThatThrownBy(() -> job.getJobExecutionResult().get())
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, StoreRefusedException.class))
            .hasValueSatisfying(refused -> assertThat(refused)
                .hasMessageContaining("s3://ktk-test/refused")
                .hasMessageContaining("403 SignatureDoesNotMatch")));
    assertThat(restarted(cluster, job.getJobID())).as("the job restarted").isFalse();
  }

  private static boolean restarted(MiniCluster cluster, JobID job) throws Exception {
    return cluster.getExecutionGraph(job).get().getStatusTimestamp(JobStatus.RESTARTING) > 0;
  }
}
