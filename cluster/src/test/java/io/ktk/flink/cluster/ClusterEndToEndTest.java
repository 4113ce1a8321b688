package io.ktk.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.cli.Ktk;
import io.ktk.flink.cli.Terminal;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The connector on a real cluster: a standalone Flink 2.1 session cluster (JobManager, two
 * TaskManagers, SQL gateway; separate JVMs on loopback, Flink's class path only) with s3proxy as
 * the store. Everything is submitted as a user would: SQL through the gateway's REST API with the
 * connector jar added by {@code ADD JAR}, a DataStream job jar through the JobManager's REST API,
 * and {@code ktk ingest --jobmanager}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(300)
class ClusterEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ROWS = 30_000;
  private static final S3Proxy S3 = S3Proxy.inMemory();

  /** In target/, so that the cluster's logs are there to read after a failure. */
  private static final Path work = Path.of("target", "cluster-e2e").toAbsolutePath();

  private static StandaloneCluster cluster;
  private static Path connectorJar;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void startTheCluster() throws Exception {
    ClusterInputs.freshWorkDirectory(work);
    S3.start();
    connectorJar = ClusterInputs.connectorJar();
    List<Path> classpath = ClusterInputs.flinkClasspath();
    assertThat(classpath).noneMatch(entry -> entry.getFileName().toString().startsWith("ktk-flink"));
    cluster = new StandaloneCluster(work.resolve("cluster"), classpath, Map.of()).start(2);
    cluster.startSqlGateway();
  }

  @AfterAll
  static void stopTheCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    S3.close();
  }

  /** Table options of the store on s3proxy. */
  private static String store(String prefix) {
    StringBuilder options = new StringBuilder("'store' = '" + S3.url(prefix) + "'");
    S3.options().forEach((key, value) -> options.append(", 'store.").append(key).append("' = '").append(value)
        .append("'"));
    return options.toString();
  }

  private static SqlGatewayClient session(boolean streaming) throws Exception {
    Map<String, String> properties = new HashMap<>();
    properties.put("execution.runtime-mode", streaming ? "streaming" : "batch");
    properties.put("execution.checkpointing.interval", "500ms");
    properties.put("restart-strategy.type", "fixed-delay");
    properties.put("restart-strategy.fixed-delay.attempts", "20");
    properties.put("restart-strategy.fixed-delay.delay", "1s");
    properties.put("table.local-time-zone", "UTC");
    SqlGatewayClient sql = new SqlGatewayClient(cluster.gatewayUrl(), properties);
    sql.execute("ADD JAR '" + connectorJar + "'");
    sql.execute("CREATE TABLE events (id BIGINT, `day` STRING, v DOUBLE) PARTITIONED BY (`day`) WITH ("
        + "'connector' = 'kartothek', " + store("sql") + ", 'dataset' = 'events', 'index-columns' = 'id', "
        + "'memory-budget' = '16mb')");
    return sql;
  }

  @Test
  @Order(1)
  void aStreamingInsertSurvivesAKilledTaskManagerExactlyOnce() throws Exception {
    SqlGatewayClient sql = session(true);
    sql.execute("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', "
        + "'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', 'rows-per-second' = '1200')");
    SqlGatewayClient.Results insert = sql.results(sql.submit(
        "INSERT INTO events SELECT id, CONCAT('d', CAST(MOD(id, 4) AS STRING)), id / 2.0 FROM numbers"));
    while (insert.hasMore()) {
      insert.next(Duration.ofMinutes(2));
    }
    String job = insert.jobId();
    assertThat(job).isNotNull();

    // Mid-job, once a checkpoint has committed rows: kill a TaskManager that runs its tasks, and
    // start another in its place (as a resource manager of a real deployment would).
    awaitCommittedVersion("sql", "events", 0);
    assertThat(jobState(job)).isEqualTo("RUNNING");
    int victim = taskManagerRunning(job);
    cluster.killTaskManager(victim);
    cluster.startTaskManager();
    String state = awaitJobEnd(job);
    assertThat(state).isEqualTo("FINISHED");
    assertThat(restarts(job)).as("the job restarted after the TaskManager died").isPositive();

    try (ObjectStore store = ObjectStores.open(S3.url("sql"), S3.options())) {
      List<Long> ids = ParquetIds.read(store, "events");
      assertThat(ids).hasSize((int) ROWS);
      assertThat(ids.stream().sorted().toList()).isEqualTo(LongStream.rangeClosed(1, ROWS).boxed().toList());
    }
    cluster.awaitTaskManagers(2);
  }

  /** The index of a TaskManager that runs a task of {@code job}. */
  private static int taskManagerRunning(String job) throws Exception {
    for (JsonNode vertex : rest("GET", "/jobs/" + job, null).path("vertices")) {
      JsonNode managers = rest("GET", "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/taskmanagers",
          null).path("taskmanagers");
      for (JsonNode manager : managers) {
        String id = manager.path("taskmanager-id").asText();
        if (id.startsWith("taskmanager-") && manager.path("status").asText().equals("RUNNING")) {
          return Integer.parseInt(id.substring("taskmanager-".length()));
        }
      }
    }
    throw new IllegalStateException("No TaskManager runs a task of job " + job);
  }

  @Test
  @Order(2)
  void aSelectWithFiltersReadsItBack() throws Exception {
    SqlGatewayClient sql = session(false);
    List<JsonNode> rows = sql.execute("SELECT id, v FROM events WHERE `day` = 'd1' AND id BETWEEN 1 AND 40");
    List<String> got = rows.stream().map(row -> row.path("fields").toString()).sorted().toList();
    List<String> expected = LongStream.rangeClosed(1, 40).filter(id -> id % 4 == 1)
        .mapToObj(id -> "[" + id + "," + (id / 2.0) + "]").sorted().toList();
    assertThat(got).isEqualTo(expected);
    assertThat(sql.execute("SELECT COUNT(*) FROM events").get(0).path("fields").get(0).asLong()).isEqualTo(ROWS);
  }

  @Test
  @Order(3)
  void aContinuousReadSeesCommitsOfADataStreamJobJar() throws Exception {
    Path jobJar = JobJars.withConnector(connectorJar, work.resolve("cube-job.jar"), CubeJob.class);
    String jarId = uploadJar(jobJar);
    assertThat(awaitJobEnd(runJar(jarId, 1, 100))).isEqualTo("FINISHED");

    SqlGatewayClient sql = session(true);
    sql.execute("CREATE TABLE sensors (`day` STRING, sensor BIGINT, reading BIGINT, `value` DOUBLE) WITH ("
        + "'connector' = 'kartothek', " + store("cube") + ", 'cube' = 'sensors', 'scan.mode' = 'CONTINUOUS', "
        + "'scan.discovery-interval' = '500ms')");
    SqlGatewayClient.Operation select = sql.submit("SELECT reading FROM sensors WHERE reading > 95");
    try {
      SqlGatewayClient.Results results = sql.results(select);
      List<Long> seen = new ArrayList<>();
      while (seen.size() < 5) {
        results.next(Duration.ofMinutes(2)).forEach(row -> seen.add(row.path("fields").get(0).asLong()));
      }
      assertThat(seen).containsExactlyInAnyOrder(96L, 97L, 98L, 99L, 100L);

      assertThat(awaitJobEnd(runJar(jarId, 101, 110))).isEqualTo("FINISHED");
      while (seen.size() < 15) {
        results.next(Duration.ofMinutes(2)).forEach(row -> seen.add(row.path("fields").get(0).asLong()));
      }
      assertThat(seen).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(96, 110).boxed().toList());
    } finally {
      sql.close(select);
    }
  }


  @Test
  @Order(4)
  void ktkIngestSubmitsToTheCluster() throws Exception {
    Path input = work.resolve("readings.jsonl");
    StringBuilder lines = new StringBuilder();
    for (long id = 1; id <= 1000; id++) {
      lines.append("{\"id\": ").append(id).append(", \"day\": \"2024-01-0").append(1 + id % 3).append("\"}\n");
    }
    Files.writeString(input, lines);
    List<String> args = new ArrayList<>(List.of("ingest", "--verbose", "--jobmanager", cluster.restAddress(),
        "--connector-jar", connectorJar.toString(), "--store", S3.url("ingest"),
        "--dataset", "readings", "--schema", "id BIGINT, day DATE", "--partition-on", "day", "--input",
        input.toString(), "--parallelism", "2", "--checkpoint-interval", "500ms"));
    S3.options().forEach((key, value) -> args.addAll(List.of("--store-option", key + "=" + value)));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Ktk.run(new PrintWriter(out), new PrintWriter(err), Terminal.none(), args.toArray(String[]::new));
    assertThat(code).as("ktk ingest: %s %s", out, err).isZero();
    String jobs = HTTP.send(HttpRequest.newBuilder(URI.create(cluster.restUrl() + "/jobs/overview")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    assertThat(jobs).as("the job ran on the cluster").contains("ktk ingest");
    try (ObjectStore store = ObjectStores.open(S3.url("ingest"), S3.options())) {
      assertThat(ParquetIds.read(store, "readings").stream().sorted().toList())
          .isEqualTo(LongStream.rangeClosed(1, 1000).boxed().toList());
    }
  }

  private static void awaitCommittedVersion(String prefix, String dataset, long version) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    try (ObjectStore store = ObjectStores.open(S3.url(prefix), S3.options())) {
      while (Instant.now().isBefore(deadline)) {
        try {
          if (DatasetSnapshot.latest(store, dataset).version() >= version) {
            return;
          }
        } catch (NoSuchDatasetException notYet) {
          // no commit yet
        }
        Thread.sleep(100); // polls the store: commits give no other signal to an outside observer
      }
    }
    throw new IllegalStateException("Dataset " + dataset + " reached no version " + version + " in time");
  }

  private static String jobState(String job) throws Exception {
    return rest("GET", "/jobs/" + job, null).path("state").asText();
  }

  private static String awaitJobEnd(String job) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(4));
    while (Instant.now().isBefore(deadline)) {
      String state = jobState(job);
      if (List.of("FINISHED", "FAILED", "CANCELED").contains(state)) {
        return state;
      }
      Thread.sleep(200); // polls the JobManager's REST API, as a user's script would
    }
    throw new IllegalStateException("Job " + job + " did not end in time");
  }

  /** The highest attempt number of any subtask of the job: 0 when no task was ever restarted. */
  private static long restarts(String job) throws Exception {
    long attempts = 0;
    for (JsonNode vertex : rest("GET", "/jobs/" + job, null).path("vertices")) {
      for (JsonNode subtask : rest("GET", "/jobs/" + job + "/vertices/" + vertex.path("id").asText(), null)
          .path("subtasks")) {
        attempts = Math.max(attempts, subtask.path("attempt").asLong());
      }
    }
    return attempts;
  }

  private static String uploadJar(Path jar) throws Exception {
    String boundary = "ktk" + System.nanoTime();
    byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
        + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n").getBytes(StandardCharsets.UTF_8);
    byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    HttpRequest request = HttpRequest.newBuilder(URI.create(cluster.restUrl() + "/jars/upload"))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.concat(HttpRequest.BodyPublishers.ofByteArray(head),
            HttpRequest.BodyPublishers.ofFile(jar), HttpRequest.BodyPublishers.ofByteArray(tail)))
        .build();
    JsonNode answer = JSON.readTree(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body());
    assertThat(answer.path("status").asText()).as(answer.toString()).isEqualTo("success");
    return Path.of(answer.path("filename").asText()).getFileName().toString();
  }

  private static String runJar(String jarId, long first, long last) throws Exception {
    List<String> args = new ArrayList<>(List.of(S3.url("cube"), Long.toString(first), Long.toString(last)));
    new TreeMap<>(S3.options()).forEach((key, value) -> args.add(key + "=" + value));
    Map<String, Object> body = Map.of("entryClass", CubeJob.class.getName(), "programArgsList", args,
        "parallelism", 2);
    JsonNode answer = rest("POST", "/jars/" + jarId + "/run", JSON.writeValueAsString(body));
    assertThat(answer.hasNonNull("jobid")).as(answer.toString()).isTrue();
    return answer.get("jobid").asText();
  }

  private static JsonNode rest(String method, String path, String body) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cluster.restUrl() + path));
    request = "POST".equals(method)
        ? request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
        : request.GET();
    return JSON.readTree(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
  }
}
