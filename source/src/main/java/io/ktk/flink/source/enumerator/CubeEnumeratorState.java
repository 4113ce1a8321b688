package io.ktk.flink.source.enumerator;

import io.ktk.flink.source.split.CubeSplit;
import java.util.List;

/**
 * What the enumerator of a bounded cube query checkpoints: the splits not assigned to a reader
 * yet. Splits assigned before the checkpoint are in the readers' state; a reader that fails hands
 * its splits back ({@code addSplitsBack}).
 *
 * @param unassigned the splits still to assign, in output order
 */
public record CubeEnumeratorState(List<CubeSplit> unassigned) {
  public CubeEnumeratorState {
    unassigned = List.copyOf(unassigned);
  }
}
