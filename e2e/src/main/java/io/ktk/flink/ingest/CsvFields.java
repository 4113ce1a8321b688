package io.ktk.flink.ingest;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV record (RFC 4180) into its fields: separated by commas, a field in double quotes
 * may hold commas, line breaks and doubled quotes ({@code ""} for one {@code "}). A field that was
 * quoted is kept apart from one that was not, because an empty unquoted field is a null and {@code
 * ""} an empty string (as {@code ktk read} writes them).
 *
 * <p>Hand-written rather than a library: no CSV library is on the tool's class path, and the
 * splitting is these few lines; the record boundaries are found by {@link
 * io.ktk.flink.ingest.source.TextRecordReader} with the same quote rule.
 */
final class CsvFields {
  /** One field: its text (quotes removed, {@code ""} unescaped) and whether it was quoted. */
  record Field(String text, boolean quoted) {
    /** Null for an empty unquoted field. */
    String value() {
      return !quoted && text.isEmpty() ? null : text;
    }
  }

  private CsvFields() {}

  /**
   * The fields of a record.
   *
   * @throws InvalidRecordException when a quote is not closed or text follows a closing quote
   */
  static List<Field> split(String record) {
    List<Field> fields = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int i = 0;
    int n = record.length();
    while (true) {
      text.setLength(0);
      boolean quoted = i < n && record.charAt(i) == '"';
      if (quoted) {
        i++;
        while (true) {
          if (i >= n) {
            throw new InvalidRecordException("the CSV record has a quote that is not closed (field "
                + (fields.size() + 1) + ")");
          }
          char c = record.charAt(i++);
          if (c == '"') {
            if (i < n && record.charAt(i) == '"') {
              text.append('"');
              i++;
            } else {
              break;
            }
          } else {
            text.append(c);
          }
        }
        if (i < n && record.charAt(i) != ',') {
          throw new InvalidRecordException("the CSV record has text after the closing quote of field "
              + (fields.size() + 1) + " (at character " + (i + 1) + ")");
        }
      } else {
        while (i < n && record.charAt(i) != ',') {
          char c = record.charAt(i++);
          if (c == '"') {
            throw new InvalidRecordException("the CSV record has a quote inside the unquoted field "
                + (fields.size() + 1) + " (at character " + i + "); quote the whole field and double the quote");
          }
          text.append(c);
        }
      }
      fields.add(new Field(text.toString(), quoted));
      if (i >= n) {
        return fields;
      }
      i++; // the comma
    }
  }
}
