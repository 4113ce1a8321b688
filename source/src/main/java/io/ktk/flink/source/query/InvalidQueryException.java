package io.ktk.flink.source.query;

import io.ktk.flink.state.KtkValidationException;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A cube query that cannot be answered as asked: text that does not parse, a column the cube does
 * not have, a literal that does not fit its column's type, a NULL literal, a {@code partition_by}
 * on a column without an index, a projection that would lose payload. Always raised while the
 * query is checked and planned, before any data file is read. The message names the column, its
 * type and the literal where they apply.
 */
@PublicEvolving
public class InvalidQueryException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public InvalidQueryException(String message) {
    super(message);
  }
}
