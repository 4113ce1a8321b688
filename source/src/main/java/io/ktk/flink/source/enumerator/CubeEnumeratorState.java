package io.ktk.flink.source.enumerator;

import io.ktk.flink.source.split.CubeSplit;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What the enumerator of a cube query checkpoints: the splits not assigned to a reader yet and,
 * for a continuous source, how far it has served the seed. Splits assigned before the checkpoint
 * are in the readers' state; a reader that fails hands its splits back ({@code addSplitsBack}).
 *
 * @param unassigned the splits still to assign, in output order
 * @param servedSeedVersion the seed version up to which every seed file is covered by a split
 *     (assigned, or among {@code unassigned}); later discoveries serve the files added after it.
 *     -1 when unknown (state of a bounded source, or of version 1)
 * @param discoveries how many discoveries of later versions produced splits (their split ids
 *     carry the count, so they stay unique across restarts)
 */
@Internal
public record CubeEnumeratorState(List<CubeSplit> unassigned, long servedSeedVersion, long discoveries) {
  public CubeEnumeratorState {
    unassigned = List.copyOf(unassigned);
    if (discoveries < 0) {
      throw new IllegalArgumentException("discoveries is negative: " + discoveries);
    }
  }

  /** The state of a bounded source. */
  public CubeEnumeratorState(List<CubeSplit> unassigned) {
    this(unassigned, -1, 0);
  }
}
