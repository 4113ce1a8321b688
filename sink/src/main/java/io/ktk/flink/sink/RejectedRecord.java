package io.ktk.flink.sink;

import org.apache.flink.annotation.PublicEvolving;

import static java.util.Objects.requireNonNull;

/**
 * A record the sink refused, as it arrives on the dead-letter stream of {@link
 * KartothekSink#addTo}.
 *
 * @param record the record rendered as text, e.g. {@code +I{id=1, p=null, ts=2021-01-01T00:00}}
 * @param reason why, naming dataset, column, value and rule, e.g. {@code Cannot write to dataset
 *     'events': column 'p' is a partition column and may not be null}
 */
@PublicEvolving
public record RejectedRecord(String record, String reason) {
  public RejectedRecord {
    requireNonNull(record, "record is null");
    requireNonNull(reason, "reason is null");
  }
}
