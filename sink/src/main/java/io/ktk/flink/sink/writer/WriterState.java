package io.ktk.flink.sink.writer;

import org.apache.flink.annotation.Internal;

import static java.util.Objects.requireNonNull;

/**
 * What a writer subtask keeps in Flink state: only its writer id. Buffers are not state: every
 * checkpoint turns them into files, and records after the checkpoint are replayed on restore.
 *
 * @param writerId generated once, on the subtask's first start, and kept across restores from
 *     checkpoints and savepoints, so that committables replayed after a restore carry the id the
 *     commit log knows
 */
@Internal
public record WriterState(String writerId) {
  public WriterState {
    requireNonNull(writerId, "writerId is null");
  }
}
