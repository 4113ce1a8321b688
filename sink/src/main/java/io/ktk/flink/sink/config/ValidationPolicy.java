package io.ktk.flink.sink.config;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What happens to a record that breaks a rule of the dataset: a null partition or index value, a
 * timestamp with a sub-microsecond part, a partition value that cannot be a label. Nothing is
 * dropped silently under either policy.
 */
@PublicEvolving
public enum ValidationPolicy {
  /** The job fails with the {@link io.ktk.flink.state.KtkValidationException}, without restarts. */
  FAIL,
  /**
   * The record and the reason go to the dead-letter stream that {@link
   * io.ktk.flink.sink.KartothekSink#addTo} returns; the job goes on.
   */
  DEAD_LETTER
}
