package io.ktk.flink.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the cluster of the end-to-end tests for a person to try ({@code cluster/run}): a
 * JobManager, two TaskManagers and the SQL gateway on loopback, until Ctrl-C.
 *
 * <p>Arguments: the file with Flink's class path, the connector jar, the work directory.
 */
public final class LocalCluster {
  private LocalCluster() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: LocalCluster FLINK_CLASSPATH_FILE CONNECTOR_JAR WORK_DIR");
      System.exit(2);
    }
    List<Path> classpath = Arrays.stream(Files.readString(Path.of(args[0])).trim().split(java.io.File.pathSeparator))
        .map(Path::of).toList();
    Path connector = Path.of(args[1]).toAbsolutePath();
    StandaloneCluster cluster = new StandaloneCluster(Path.of(args[2]), classpath, Map.of());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        cluster.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stopped.countDown();
    }));
    System.out.println("Starting a JobManager, two TaskManagers and the SQL gateway (logs in "
        + cluster.workDir().resolve("log") + ") ...");
    cluster.start(2);
    cluster.startSqlGateway();
    System.out.println();
    System.out.println("Flink web UI and REST API: " + cluster.restUrl());
    System.out.println("SQL gateway (REST):        " + cluster.gatewayUrl());
    System.out.println();
    System.out.println("Ingest into a dataset on this cluster:");
    System.out.println("  ./ktk ingest --jobmanager " + cluster.restAddress() + " --store file:///tmp/ktk-data"
        + " --dataset events --schema 'id BIGINT, day DATE' --partition-on day --input events.jsonl");
    System.out.println("SQL through the gateway (a session, then statements; ADD JAR brings the connector):");
    System.out.println("  curl -s -X POST " + cluster.gatewayUrl() + "/v1/sessions -H 'Content-Type: application/json'"
        + " -d '{}'");
    System.out.println("  curl -s -X POST " + cluster.gatewayUrl() + "/v1/sessions/SESSION/statements"
        + " -H 'Content-Type: application/json' -d '{\"statement\": \"ADD JAR '\\''" + connector + "'\\''\"}'");
    System.out.println();
    System.out.println("Ctrl-C stops the cluster.");
    stopped.await();
  }
}
