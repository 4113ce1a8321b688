package io.ktk.flink.source.query;

import io.ktk.flink.state.store.StoreRefusedException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.ExceptionUtils;

/**
 * Failures of the store that restarting cannot fix: a {@link StoreRefusedException} (access
 * denied, wrong keys, no such bucket) anywhere in a failure's causes fails the job without
 * restarts, as the sink does; a restarted enumerator or reader would be refused the same way, for
 * as long as the restart strategy allows.
 */
@Internal
public final class StoreRefusals {
  private StoreRefusals() {}

  /**
   * Throws {@code failure} wrapped in a {@link SuppressRestartsException} when the store refused a
   * request in it; otherwise returns it, for the caller to throw.
   */
  public static <E extends Throwable> E failFastIfRefused(E failure) {
    if (ExceptionUtils.findThrowable(failure, StoreRefusedException.class).isPresent()) {
      throw new SuppressRestartsException(failure);
    }
    return failure;
  }
}
