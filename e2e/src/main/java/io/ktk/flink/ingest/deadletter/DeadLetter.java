package io.ktk.flink.ingest.deadletter;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.sink.RejectedRecord;

/**
 * A record that was not ingested, with why: a line that could not be parsed or converted (with its
 * line number and original text) or a row the sink's validation refused (as the sink renders it).
 * Written as one JSON line: {@code {"line":12,"record":"{\"a\": \"x\"}","reason":"column 'a' holds
 * \"x\", which is not a BIGINT (an integer)"}} ({@code line} is absent for the sink's rejections).
 *
 * @param line the line the record starts on, or null when unknown
 */
public record DeadLetter(Long line, String record, String reason) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public DeadLetter {
    requireNonNull(record, "record is null");
    requireNonNull(reason, "reason is null");
  }

  /** A rejection from the sink's dead-letter stream. */
  public static DeadLetter of(RejectedRecord rejected) {
    return new DeadLetter(null, rejected.record(), rejected.reason());
  }

  /** The JSON line, without a line break. */
  public String toJson() {
    ObjectNode node = JSON.createObjectNode();
    if (line != null) {
      node.put("line", line);
    }
    node.put("record", record);
    node.put("reason", reason);
    return node.toString();
  }
}
