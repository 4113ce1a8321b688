package io.ktk.flink.state.types;

import io.ktk.flink.state.KtkValidationException;
import java.util.Optional;

/**
 * A micro-batch's schema does not fit the committed schema of a dataset: a column is missing or
 * extra, or a column's type belongs to another type class than the committed one. The message
 * names the dataset, the column, the committed type, the offered type (as pyarrow prints them)
 * and the rule that was broken; {@link #dataset()} and {@link #column()} let a dead-letter
 * output or a CLI report them without parsing the message.
 */
public class IncompatibleSchemaException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  private final String dataset;
  private final String column;

  public IncompatibleSchemaException(String dataset, String column, String message) {
    super(message);
    this.dataset = dataset;
    this.column = column;
  }

  public String dataset() {
    return dataset;
  }

  /** The offending column; empty when the set of columns differs. */
  public Optional<String> column() {
    return Optional.ofNullable(column);
  }
}
