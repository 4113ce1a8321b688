package io.ktk.flink.cli;

import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Writes the rows {@code ktk read} and {@code ktk query} stream, one at a time, in one of the
 * output formats. Output may be buffered until {@link #flush}.
 */
interface RowWriter {

  /** Writes one row: one value per column, in column order; nulls are null. */
  void write(Object[] row) throws IOException;

  /**
   * Writes row {@code row} of the column vectors {@code columns} (one per column, in column
   * order), as {@link #write(Object[])} writes the row of their typed values.
   */
  void write(TypedVector[] columns, int row) throws IOException;

  /** Flushes what is buffered; the underlying writer stays open. */
  void flush() throws IOException;

  /** The writer of {@code format} for the columns {@code fields}; writes a header where the format has one. */
  static RowWriter of(OutputFormat format, PrintWriter out, List<Field> fields) throws IOException {
    return switch (format) {
      case CSV -> new CsvRowWriter(out, fields);
      case JSONL -> new JsonLinesRowWriter(out, fields);
    };
  }

  /** The formats of {@code --format}. */
  enum OutputFormat {
    CSV,
    JSONL
  }
}
