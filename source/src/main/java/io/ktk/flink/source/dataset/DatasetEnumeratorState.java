package io.ktk.flink.source.dataset;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What the enumerator of a dataset source checkpoints: the splits not assigned to a reader yet,
 * in output order. Assigned splits are in the readers' state; a reader that fails hands its
 * splits back.
 */
@Internal
public record DatasetEnumeratorState(List<DatasetSplit> unassigned) {
  public DatasetEnumeratorState {
    unassigned = List.copyOf(unassigned);
  }
}
