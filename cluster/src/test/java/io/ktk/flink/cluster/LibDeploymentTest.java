package io.ktk.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The connector jar in the cluster's {@code lib/}: on the class path of every process from the
 * start, loaded parent-first by Flink's own class loader beside Flink's libraries (its Jackson among
 * them), with no {@code ADD JAR} in the session. SQL writes a dataset on s3proxy, reads it back
 * with a filter, and a catalog lists it.
 */
@Timeout(300)
class LibDeploymentTest {
  private static final S3Proxy S3 = S3Proxy.inMemory();
  private static final Path work = Path.of("target", "cluster-lib").toAbsolutePath();
  private static StandaloneCluster cluster;

  @BeforeAll
  static void startAClusterWithTheConnectorInLib() throws Exception {
    ClusterInputs.freshWorkDirectory(work);
    S3.start();
    List<Path> classpath = new ArrayList<>(ClusterInputs.flinkClasspath());
    // what copying the jar into a distribution's lib/ does: Flink's scripts put every lib/ jar on the class path
    classpath.add(ClusterInputs.connectorJar());
    cluster = new StandaloneCluster(work.resolve("cluster"), classpath, Map.of()).start(1);
    cluster.startSqlGateway();
  }

  @AfterAll
  static void stopTheCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    S3.close();
  }

  @Test
  void sqlWritesReadsAndListsWithoutAddJar() throws Exception {
    Map<String, String> properties = new HashMap<>();
    properties.put("execution.runtime-mode", "batch");
    properties.put("table.dml-sync", "true");
    properties.put("table.local-time-zone", "UTC");
    SqlGatewayClient sql = new SqlGatewayClient(cluster.gatewayUrl(), properties);
    StringBuilder store = new StringBuilder("'store' = '" + S3.url("lib") + "'");
    S3.options().forEach((key, value) -> store.append(", 'store.").append(key).append("' = '").append(value)
        .append("'"));
    sql.execute("CREATE TABLE orders (id BIGINT, region STRING, amount DOUBLE) PARTITIONED BY (region) WITH ("
        + "'connector' = 'kartothek', " + store + ", 'dataset' = 'orders', 'index-columns' = 'id')");
    sql.execute("INSERT INTO orders VALUES (1, 'north', 10.5), (2, 'south', 20.25), (3, 'north', 30.0), "
        + "(4, 'south', 40.75)");

    List<String> north = sql.execute("SELECT id, amount FROM orders WHERE region = 'north' AND amount > 20")
        .stream().map(row -> row.path("fields").toString()).toList();
    assertThat(north).containsExactly("[3,30.0]");
    assertThat(sql.execute("SELECT SUM(amount) FROM orders").get(0).path("fields").get(0).asDouble())
        .isEqualTo(101.5);

    sql.execute("CREATE CATALOG ktk WITH ('type' = 'kartothek', " + store + ")");
    List<JsonNode> tables = sql.execute("SHOW TABLES IN ktk.`default`");
    assertThat(tables.stream().map(row -> row.path("fields").get(0).asText()).toList()).contains("orders");
    assertThat(sql.execute("SELECT COUNT(*) FROM ktk.`default`.orders WHERE region = 'south'").get(0)
        .path("fields").get(0).asLong()).isEqualTo(2);
  }
}
