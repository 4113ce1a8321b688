package io.ktk.flink.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A standalone Flink session cluster on loopback, each process a JVM of its own started from
 * Flink's entry points, as a Flink distribution's scripts start them: a JobManager ({@code
 * StandaloneSessionClusterEntrypoint}, with the REST API and the web UI's jar upload), TaskManagers
 * ({@code TaskManagerRunner}), and optionally the SQL gateway ({@code SqlGateway}, REST endpoint).
 *
 * <p>The class path is Flink's artifacts and their libraries only (what a distribution's {@code
 * lib/} holds); this project's classes reach the cluster as users' do: with a job (a job jar,
 * {@code ADD JAR} in SQL, {@code pipeline.jars}). {@code config.yaml} is written to the work
 * directory; each process logs to {@code log/<name>.log} there.
 */
public final class StandaloneCluster implements AutoCloseable {
  /** What Flink's default {@code config.yaml} passes to every JVM on Java 17. */
  private static final List<String> JAVA_17_OPTIONS = List.of(
      "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
      "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
      "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED",
      "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private final Path workDir;
  private final String classpath;
  private final int restPort;
  private final int gatewayPort;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Process> taskManagers = new ArrayList<>();
  private Process jobManager;
  /** The TaskManagers' JVM options and dynamic configuration, from Flink's BashJavaUtils. */
  private List<String> taskManagerResources;
  private Process gateway;

  /**
   * @param workDir configuration, logs, checkpoints and temporary files of the cluster
   * @param classpath Flink's class path, one entry per element
   * @param extraConfig configuration on top of the cluster's own (written to {@code config.yaml})
   */
  public StandaloneCluster(Path workDir, List<Path> classpath, Map<String, String> extraConfig) throws IOException {
    this.workDir = workDir.toAbsolutePath();
    this.classpath = String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList());
    this.restPort = freePort();
    this.gatewayPort = freePort();
    Files.createDirectories(this.workDir.resolve("conf"));
    Files.createDirectories(this.workDir.resolve("log"));
    Map<String, String> config = new LinkedHashMap<>();
    config.put("jobmanager.rpc.address", "localhost");
    config.put("jobmanager.rpc.port", Integer.toString(freePort()));
    config.put("jobmanager.bind-host", "localhost");
    config.put("jobmanager.memory.process.size", "1024m");
    config.put("rest.address", "localhost");
    config.put("rest.bind-address", "localhost");
    config.put("rest.port", Integer.toString(restPort));
    config.put("taskmanager.host", "localhost");
    config.put("taskmanager.bind-host", "localhost");
    config.put("taskmanager.numberOfTaskSlots", "2");
    config.put("taskmanager.memory.process.size", "1600m");
    config.put("taskmanager.memory.managed.size", "64m");
    config.put("taskmanager.memory.network.min", "64m");
    config.put("taskmanager.memory.network.max", "64m");
    // a job's tasks spread over the TaskManagers, so that killing one hits the job
    config.put("taskmanager.load-balance.mode", "SLOTS");
    // a SIGKILLed TaskManager is noticed within seconds, not the default 50
    config.put("heartbeat.interval", "1000");
    config.put("heartbeat.timeout", "5000");
    config.put("parallelism.default", "2");
    config.put("execution.target", "remote");
    config.put("io.tmp.dirs", this.workDir.resolve("tmp").toString());
    config.put("web.upload.dir", this.workDir.resolve("uploads").toString());
    config.put("execution.checkpointing.dir", this.workDir.resolve("checkpoints").toUri().toString());
    config.put("sql-gateway.endpoint.rest.address", "localhost");
    config.put("sql-gateway.endpoint.rest.bind-address", "localhost");
    config.put("sql-gateway.endpoint.rest.port", Integer.toString(gatewayPort));
    config.put("env.java.opts.all", String.join(" ", JAVA_17_OPTIONS));
    config.putAll(extraConfig);
    StringBuilder yaml = new StringBuilder();
    config.forEach((key, value) -> yaml.append(key).append(": ").append(quoted(value)).append('\n'));
    Files.createDirectories(this.workDir.resolve("tmp"));
    Files.createDirectories(this.workDir.resolve("uploads"));
    Files.writeString(this.workDir.resolve("conf/config.yaml"), yaml.toString());
    Files.writeString(this.workDir.resolve("conf/logback.xml"), """
        <configuration>
          <appender name="file" class="ch.qos.logback.core.FileAppender">
            <file>${log.file}</file>
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <logger name="org.apache.flink" level="INFO"/>
          <logger name="io.ktk" level="INFO"/>
          <root level="WARN"><appender-ref ref="file"/></root>
        </configuration>
        """);
  }

  /** Starts the JobManager and {@code taskManagers} TaskManagers, and waits until all have registered. */
  public StandaloneCluster start(int taskManagerCount) throws IOException, InterruptedException {
    List<String> resources = bashJavaUtils("GET_JM_RESOURCE_PARAMS");
    jobManager = launch("jobmanager", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
        List.of(resources.get(0).trim().split("\\s+")), List.of(resources.get(1).trim().split("\\s+")));
    for (int i = 0; i < taskManagerCount; i++) {
      startTaskManager();
    }
    awaitTaskManagers(taskManagerCount);
    return this;
  }

  /**
   * Starts one more TaskManager (it registers itself with the JobManager), with the JVM options and
   * memory settings that Flink's {@code BashJavaUtils} derives from the configuration, as {@code
   * taskmanager.sh} does.
   */
  public Process startTaskManager() throws IOException, InterruptedException {
    if (taskManagerResources == null) {
      taskManagerResources = bashJavaUtils("GET_TM_RESOURCE_PARAMS");
    }
    List<String> jvm = List.of(taskManagerResources.get(0).trim().split("\\s+"));
    List<String> dynamic = new ArrayList<>(List.of(taskManagerResources.get(1).trim().split("\\s+")));
    // a resource id that names the process, so that a test can kill the one that runs a task
    dynamic.addAll(List.of("-D", "taskmanager.resource-id=" + taskManagerId(taskManagers.size())));
    Process process = launch(taskManagerId(taskManagers.size()),
        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", jvm, dynamic);
    taskManagers.add(process);
    return process;
  }

  /**
   * Runs {@code org.apache.flink.runtime.util.bash.BashJavaUtils} as Flink's scripts do and returns
   * its results: the JVM options, then the dynamic configuration ({@code -D key=value ...}).
   */
  private List<String> bashJavaUtils(String command) throws IOException, InterruptedException {
    Path out = workDir.resolve("log/bash-java-utils.out");
    Process process = new ProcessBuilder(java(), "-cp", classpath, "org.apache.flink.runtime.util.bash.BashJavaUtils",
        command, "--configDir", workDir.resolve("conf").toString())
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("Flink's BashJavaUtils " + command + " failed: " + Files.readString(out));
    }
    String prefix = "BASH_JAVA_UTILS_EXEC_RESULT:";
    List<String> results = Files.readAllLines(out).stream().filter(line -> line.startsWith(prefix))
        .map(line -> line.substring(prefix.length())).toList();
    if (results.size() != 2) {
      throw new IllegalStateException("Flink's BashJavaUtils " + command + " printed " + results.size()
          + " results, not 2: " + Files.readString(out));
    }
    return results;
  }

  /** Starts the SQL gateway and waits until its REST endpoint answers. */
  public void startSqlGateway() throws IOException, InterruptedException {
    gateway = launch("sql-gateway", "org.apache.flink.table.gateway.SqlGateway", List.of("-Xmx512m"), List.of());
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (true) {
      checkAlive(gateway, "sql-gateway");
      try {
        if (get(gatewayUrl() + "/v1/info").statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("The SQL gateway did not answer within " + START_TIMEOUT + "; see "
            + workDir.resolve("log/sql-gateway.log"));
      }
      Thread.sleep(200);
    }
  }

  /** The resource id of TaskManager {@code index}, as the JobManager's REST API shows it. */
  public static String taskManagerId(int index) {
    return "taskmanager-" + index;
  }

  /** Kills TaskManager {@code index} with SIGKILL: no shutdown hook runs, its sockets just close. */
  public void killTaskManager(int index) throws InterruptedException {
    Process process = taskManagers.get(index);
    process.destroyForcibly();
    process.waitFor();
  }

  /** Waits until exactly {@code count} TaskManagers are registered. */
  public void awaitTaskManagers(int count) throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    Pattern registered = Pattern.compile("\"taskmanagers\"\\s*:\\s*(\\d+)");
    while (true) {
      checkAlive(jobManager, "jobmanager");
      try {
        HttpResponse<String> overview = get(restUrl() + "/overview");
        Matcher m = registered.matcher(overview.body());
        if (overview.statusCode() == 200 && m.find() && Integer.parseInt(m.group(1)) == count) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(count + " TaskManagers did not register within " + START_TIMEOUT + "; see "
            + workDir.resolve("log"));
      }
      Thread.sleep(200);
    }
  }

  /** The JobManager's REST API (and web UI), e.g. {@code http://localhost:8081}. */
  public String restUrl() {
    return "http://localhost:" + restPort;
  }

  /** The JobManager's REST address as {@code ktk ingest --jobmanager} takes it. */
  public String restAddress() {
    return "localhost:" + restPort;
  }

  /** The SQL gateway's REST endpoint. */
  public String gatewayUrl() {
    return "http://localhost:" + gatewayPort;
  }

  public Path workDir() {
    return workDir;
  }

  HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private Process launch(String name, String mainClass, List<String> jvmOptions, List<String> dynamicConfig)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(jvmOptions.stream().filter(option -> !option.isBlank()).toList());
    command.addAll(JAVA_17_OPTIONS);
    command.add("-Dlog.file=" + workDir.resolve("log/" + name + ".log"));
    command.add("-Dlogback.configurationFile=" + workDir.resolve("conf/logback.xml"));
    command.add("-Dpekko.coordinated-shutdown.run-by-jvm-shutdown-hook=off");
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.add("--configDir");
    command.add(workDir.resolve("conf").toString());
    command.addAll(dynamicConfig.stream().filter(option -> !option.isBlank()).toList());
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(workDir.resolve("log/" + name + ".out").toFile());
    builder.environment().put("FLINK_CONF_DIR", workDir.resolve("conf").toString());
    return builder.start();
  }

  private void checkAlive(Process process, String name) throws IOException {
    if (!process.isAlive()) {
      Path out = workDir.resolve("log/" + name + ".out");
      String tail = Files.exists(out) ? Files.readString(out) : "";
      throw new IllegalStateException("Flink's " + name + " exited with " + process.exitValue() + ": "
          + tail.substring(Math.max(0, tail.length() - 3000)));
    }
  }

  private static String quoted(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops every process (SIGTERM, then SIGKILL after a grace period). */
  @Override
  public void close() throws InterruptedException {
    List<Process> all = new ArrayList<>(taskManagers);
    if (gateway != null) {
      all.add(gateway);
    }
    if (jobManager != null) {
      all.add(jobManager);
    }
    all.forEach(Process::destroy);
    for (Process process : all) {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }
}
