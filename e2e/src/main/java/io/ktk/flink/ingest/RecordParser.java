package io.ktk.flink.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.ingest.source.InputRecord;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Parses input records of one format into rows of the declared row type ({@link ValueConverter}
 * has the value forms). A JSON line is one object whose fields are columns (missing ones are null;
 * unknown ones, a field given twice and text after the object are refused: {@link StrictJson}). A
 * CSV record has a field per column of the header, in the header's order (columns the header does
 * not name are null). A record that is not valid UTF-8 is refused in any format. The changelog
 * formats ({@code debezium-json}, {@code canal-json}) are read by Flink's own deserialization
 * schemas ({@link ChangelogParser}).
 */
public final class RecordParser implements Serializable {
  private static final long serialVersionUID = 1L;

  private final RowType rowType;
  private final IngestFormat format;
  /** For CSV: the row position of each header column. */
  private final int[] csvPositions;
  /** For the changelog formats: Flink's deserialization of their envelopes. */
  private final ChangelogParser changes;

  private RecordParser(RowType rowType, IngestFormat format, int[] csvPositions) {
    this.rowType = requireNonNull(rowType, "rowType is null");
    this.format = requireNonNull(format, "format is null");
    this.csvPositions = csvPositions;
    this.changes = format.isChangelog() ? new ChangelogParser(rowType, format) : null;
  }

  /** A parser of change envelopes, one per line ({@link IngestFormat#isChangelog()}). */
  public static RecordParser changelog(RowType rowType, IngestFormat format) {
    return new RecordParser(rowType, format, null);
  }

  /** A parser of JSON lines. */
  public static RecordParser jsonLines(RowType rowType) {
    return new RecordParser(rowType, IngestFormat.JSONL, null);
  }

  /**
   * A parser of CSV records with the given header row.
   *
   * @throws InvalidRecordException when the header names a column the row type lacks, or one twice
   */
  public static RecordParser csv(RowType rowType, String header) {
    List<CsvFields.Field> names = CsvFields.split(header);
    int[] positions = new int[names.size()];
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < positions.length; i++) {
      String name = names.get(i).text();
      positions[i] = rowType.getFieldIndex(name);
      if (positions[i] < 0) {
        throw new InvalidRecordException("the CSV header names column '" + name + "', which the schema does not "
            + "have (columns: " + String.join(", ", rowType.getFieldNames()) + ")");
      }
      if (seen.contains(name)) {
        throw new InvalidRecordException("the CSV header names column '" + name + "' twice");
      }
      seen.add(name);
    }
    return new RecordParser(rowType, IngestFormat.CSV, positions);
  }

  public RowType rowType() {
    return rowType;
  }

  public IngestFormat format() {
    return format;
  }

  /** Prepares the parser in a task: Flink's changelog formats need its context. */
  public void open(DeserializationSchema.InitializationContext context) {
    if (changes != null) {
      changes.open(context);
    }
  }

  /**
   * Passes on the rows of a record: its row, or, for a changelog format, its changes (none, one,
   * or for canal-json several) with their row kinds.
   *
   * @throws InvalidRecordException with the reason (column, value, rule), without the line
   */
  public void parse(InputRecord record, Consumer<RowData> out) {
    if (changes == null) {
      out.accept(parse(record));
      return;
    }
    if (record.encodingError() != null) {
      throw new InvalidRecordException(record.encodingError());
    }
    changes.parse(record.text(), out);
  }

  /**
   * The row of a record of a format that is no changelog.
   *
   * @throws InvalidRecordException with the reason (column, value, rule), without the line
   */
  public RowData parse(InputRecord record) {
    if (changes != null) {
      throw new IllegalStateException(format.cliName() + " records are changes; parse them with parse(record, out)");
    }
    if (record.encodingError() != null) {
      throw new InvalidRecordException(record.encodingError());
    }
    return format == IngestFormat.JSONL ? parseJson(record.text()) : parseCsv(record.text());
  }

  private RowData parseJson(String text) {
    JsonNode node = StrictJson.read(text, "the line");
    if (!node.isObject()) {
      throw new InvalidRecordException("the line is not a JSON object");
    }
    return ValueConverter.row(node, rowType, "");
  }

  private RowData parseCsv(String text) {
    List<CsvFields.Field> fields = CsvFields.split(text);
    if (fields.size() != csvPositions.length) {
      throw new InvalidRecordException("the CSV record has " + fields.size() + " fields where the header has "
          + csvPositions.length);
    }
    GenericRowData row = new GenericRowData(rowType.getFieldCount());
    boolean[] set = new boolean[rowType.getFieldCount()];
    for (int i = 0; i < csvPositions.length; i++) {
      int position = csvPositions[i];
      String value = fields.get(i).value();
      String column = rowType.getFieldNames().get(position);
      row.setField(position, value == null ? ValueConverter.fromJson(null, rowType.getTypeAt(position), column)
          : ValueConverter.fromText(value, rowType.getTypeAt(position), column));
      set[position] = true;
    }
    for (int position = 0; position < set.length; position++) {
      if (!set[position]) {
        row.setField(position, ValueConverter.fromJson(null, rowType.getTypeAt(position),
            rowType.getFieldNames().get(position)));
      }
    }
    return row;
  }
}
