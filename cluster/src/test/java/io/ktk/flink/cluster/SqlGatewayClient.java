package io.ktk.flink.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The SQL gateway's REST API as a user's client speaks it: a session with properties, statements,
 * and their results fetched page by page ({@code nextResultUri}) as JSON rows.
 */
final class SqlGatewayClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final String url;
  private final String session;

  SqlGatewayClient(String url, Map<String, String> properties) throws IOException, InterruptedException {
    this.url = url;
    this.session = post("/v1/sessions", Map.of("properties", properties)).path("sessionHandle").asText();
  }

  /** A running statement: its operation handle. */
  record Operation(String handle) {}

  Operation submit(String statement) throws IOException, InterruptedException {
    return new Operation(post("/v1/sessions/" + session + "/statements", Map.of("statement", statement))
        .path("operationHandle").asText());
  }

  /** Runs a statement to its end (an INSERT: until its job is submitted) and returns every row of its result. */
  List<JsonNode> execute(String statement) throws IOException, InterruptedException {
    Operation operation = submit(statement);
    List<JsonNode> rows = new ArrayList<>();
    Results results = results(operation);
    while (results.hasMore()) {
      rows.addAll(results.next(Duration.ofMinutes(3)));
    }
    return rows;
  }

  /** The result pages of an operation, fetched on demand. */
  Results results(Operation operation) {
    return new Results("/v2/sessions/" + session + "/operations/" + operation.handle() + "/result/0?rowFormat=JSON");
  }

  /** Closes the operation: its result is dropped and a job still running for it is cancelled. */
  void close(Operation operation) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/v1/sessions/" + session + "/operations/"
        + operation.handle() + "/close")).DELETE().build();
    answer(http.send(request, HttpResponse.BodyHandlers.ofString()), "close " + operation.handle());
  }

  /** The pages of one result. */
  final class Results {
    private String next;
    private String jobId;

    private Results(String first) {
      this.next = first;
    }

    boolean hasMore() {
      return next != null;
    }

    /** The job the statement submitted, once a page has said it. */
    String jobId() {
      return jobId;
    }

    /** The rows of the next page that has any (or the end), waiting at most {@code timeout}. */
    List<JsonNode> next(Duration timeout) throws IOException, InterruptedException {
      Instant deadline = Instant.now().plus(timeout);
      while (next != null) {
        JsonNode page = get(next);
        if (page.hasNonNull("jobID")) {
          jobId = page.get("jobID").asText();
        }
        String type = page.path("resultType").asText();
        next = page.hasNonNull("nextResultUri") ? page.get("nextResultUri").asText() : null;
        List<JsonNode> rows = new ArrayList<>();
        page.path("results").path("data").forEach(rows::add);
        if (!rows.isEmpty() || "EOS".equals(type)) {
          if ("EOS".equals(type)) {
            next = null;
          }
          return rows;
        }
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException("No rows within " + timeout + " from " + next);
        }
        if ("NOT_READY".equals(type)) {
          Thread.sleep(100); // the gateway has nothing yet: it offers no way to wait for it
        }
      }
      return List.of();
    }
  }

  private JsonNode post(String path, Object body) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
        .build();
    return answer(http.send(request, HttpResponse.BodyHandlers.ofString()), path);
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return answer(http.send(HttpRequest.newBuilder(URI.create(url + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString()), path);
  }

  private static JsonNode answer(HttpResponse<String> response, String path) throws IOException {
    if (response.statusCode() != 200) {
      throw new SqlGatewayException("The SQL gateway answered " + response.statusCode() + " to " + path + ": "
          + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** An error the gateway reported, with its message (the statement's failure and its causes). */
  static final class SqlGatewayException extends IOException {
    private static final long serialVersionUID = 1L;

    SqlGatewayException(String message) {
      super(message);
    }
  }
}
