package io.ktk.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.ingest.source.InputRecord;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

class RecordParserTest {
  private static final RowType TYPE = (RowType) LogicalTypeParser.parse("ROW<i INT NOT NULL, t TINYINT, "
      + "f FLOAT, s VARCHAR(3), b BYTES, d DECIMAL(5, 2), `day` DATE, tm TIME(3), ts TIMESTAMP(6), "
      + "tz TIMESTAMP_LTZ(6), ok BOOLEAN, l ARRAY<BIGINT>, r ROW<x INT>>", RecordParserTest.class.getClassLoader());

  private static RowData json(String line) {
    return RecordParser.jsonLines(TYPE).parse(new InputRecord(1, line));
  }

  private static RowData csv(String header, String line) {
    return RecordParser.csv(TYPE, header).parse(new InputRecord(2, line));
  }

  @Test
  void jsonValuesInTheFormsKtkReadPrints() {
    RowData row = json("{\"i\": 1, \"t\": -128, \"f\": \"NaN\", \"s\": \"abc\", \"b\": \"YWI=\", \"d\": \"12.30\", "
        + "\"day\": \"2024-01-02\", \"tm\": \"03:04:05.5\", \"ts\": \"2024-01-02T03:04:05.123456\", "
        + "\"tz\": \"2024-01-02T04:04:05+01:00\", \"ok\": true, \"l\": [1, null], \"r\": {\"x\": 7}}");

    assertThat(row.getInt(0)).isEqualTo(1);
    assertThat(row.getByte(1)).isEqualTo((byte) -128);
    assertThat(row.getFloat(2)).isNaN();
    assertThat(row.getString(3).toString()).isEqualTo("abc");
    assertThat(row.getBinary(4)).containsExactly('a', 'b');
    assertThat(row.getDecimal(5, 5, 2).toBigDecimal()).isEqualTo(new BigDecimal("12.30"));
    assertThat(LocalDate.ofEpochDay(row.getInt(6))).isEqualTo(LocalDate.of(2024, 1, 2));
    assertThat(row.getInt(7)).isEqualTo(((3 * 60 + 4) * 60 + 5) * 1000 + 500);
    assertThat(row.getTimestamp(8, 6).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000));
    assertThat(row.getTimestamp(9, 6).toInstant()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
    assertThat(row.getBoolean(10)).isTrue();
    assertThat(row.getArray(11).getLong(0)).isEqualTo(1);
    assertThat(row.getArray(11).isNullAt(1)).isTrue();
    assertThat(row.getRow(12, 1).getInt(0)).isEqualTo(7);
  }

  @Test
  void csvTellsEmptyStringsFromNullsAndReadsNestedValuesAsJson() {
    RowData row = csv("s,i,l,r,ok", "\"\",5,\"[1,2]\",\"{\"\"x\"\": 3}\",");

    assertThat(row.getString(3).toString()).isEmpty();
    assertThat(row.getInt(0)).isEqualTo(5);
    assertThat(row.getArray(11).size()).isEqualTo(2);
    assertThat(row.getRow(12, 1).getInt(0)).isEqualTo(3);
    assertThat(row.isNullAt(10)).as("empty unquoted field").isTrue();
    assertThat(row.isNullAt(6)).as("column missing from the header").isTrue();
  }

  @Test
  void aJsonLineIsExactlyOneObjectWithEachFieldOnce() {
    assertThatThrownBy(() -> json("{\"i\": 1}{\"i\": 2}")).isInstanceOf(InvalidRecordException.class)
        .hasMessage("the line has text after its JSON value, from character 9: {\"i\": 2} (one JSON value, e.g. one "
            + "object per line)");
    assertThatThrownBy(() -> json("{\"i\": 1} trailing")).isInstanceOf(InvalidRecordException.class)
        .hasMessageStartingWith("the line has text after its JSON value, from character 9: trailing");
    assertThatThrownBy(() -> json("{\"i\": 1, \"s\": \"a\", \"i\": 2}")).isInstanceOf(InvalidRecordException.class)
        .hasMessage("the line gives field 'i' twice in one JSON object (first 1); a JSON object gives each field once");
    assertThatThrownBy(() -> json("{\"i\": 1, \"r\": {\"x\": 1, \"x\": 2}}"))
        .hasMessageStartingWith("the line gives field 'x' twice in one JSON object");
    assertThatThrownBy(() -> csv("i,r", "1,\"{\"\"x\"\": 1} {}\""))
        .hasMessageStartingWith("column 'r' holds \"{\"x\": 1} {}\", which is not a ROW<`x` INT> as JSON: it has text "
            + "after its JSON value");
    assertThat(json("{\"i\": 1}  ").getInt(0)).as("white space after the object is fine").isEqualTo(1);
  }

  @Test
  void valuesOutOfTheTypesRangeAreRefusedNotStoredAsOthers() {
    RowType types = (RowType) LogicalTypeParser.parse("ROW<f FLOAT, g DOUBLE, d DECIMAL(20, 2), `day` DATE, "
        + "ts TIMESTAMP(6), tz TIMESTAMP_LTZ(6), s STRING, b VARBINARY(2)>", RecordParserTest.class.getClassLoader());
    RecordParser json = RecordParser.jsonLines(types);
    RecordParser csv = RecordParser.csv(types, "f,g,d,day,ts,tz,s,b");

    RowData exact = json.parse(new InputRecord(1, "{\"d\": 12345678901234567.89, \"f\": 3.4028235e38, "
        + "\"g\": 1.7976931348623157e308, \"day\": \"+5881580-07-11\", \"ts\": \"+294247-01-10T04:00:54.775807\"}"));
    assertThat(exact.getDecimal(2, 20, 2).toBigDecimal()).isEqualTo(new BigDecimal("12345678901234567.89"));
    assertThat(exact.getFloat(0)).isEqualTo(Float.MAX_VALUE);
    assertThat(exact.getDouble(1)).isEqualTo(Double.MAX_VALUE);
    assertThat(exact.getInt(3)).isEqualTo(Integer.MAX_VALUE);
    assertThat(exact.getTimestamp(4, 6).toLocalDateTime()).isEqualTo(LocalDateTime.parse("+294247-01-10T04:00:54.775807"));
    RowData infinite = json.parse(new InputRecord(1, "{\"f\": \"Infinity\", \"g\": \"-Infinity\"}"));
    assertThat(infinite.getFloat(0)).isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(infinite.getDouble(1)).isEqualTo(Double.NEGATIVE_INFINITY);

    for (RecordParser parser : List.of(json, csv)) {
      assertThatThrownBy(() -> parse(parser, "f", "1e39")).isInstanceOf(InvalidRecordException.class)
          .hasMessage("column 'f' holds " + quoted(parser, "1e39", "1E+39") + ", which is out of the range of a FLOAT (at most "
              + "3.4028235E38 in magnitude; Infinity only as \"Infinity\")");
      assertThatThrownBy(() -> parse(parser, "g", "-1e400"))
          .hasMessageStartingWith("column 'g' holds " + quoted(parser, "-1e400", "-1E+400") + ", which is out of the range of a "
              + "DOUBLE");
      assertThatThrownBy(() -> parse(parser, "d", "1234567890123456789.1"))
          .hasMessage("column 'd' holds 1234567890123456789.1, which has more than 20 digits, which a DECIMAL(20, 2) "
              + "holds");
      assertThatThrownBy(() -> parse(parser, "d", "1e999999999")).hasMessageContaining("has more than 20 digits");
      assertThatThrownBy(() -> parse(parser, "day", "\"+5881580-07-12\""))
          .hasMessage("column 'day' holds \"+5881580-07-12\", which is outside the range of a DATE "
              + "(-5877641-06-23 to +5881580-07-11: days since 1970-01-01 in 32 bits)");
      assertThatThrownBy(() -> parse(parser, "ts", "\"+294247-01-10T04:00:54.775808\""))
          .hasMessage("column 'ts' holds \"+294247-01-10T04:00:54.775808\", which is outside the range of a "
              + "TIMESTAMP(6) as stored (-290308-12-21T19:59:05.224192 to +294247-01-10T04:00:54.775807: microseconds "
              + "since 1970-01-01 in 64 bits)");
      assertThatThrownBy(() -> parse(parser, "ts", "\"+999999999-12-31T23:59:59\""))
          .hasMessageContaining("is outside the range of a TIMESTAMP(6)");
      assertThatThrownBy(() -> parse(parser, "tz", "\"-300000-01-01T00:00:00Z\""))
          .hasMessageContaining("is outside the range of a TIMESTAMP_LTZ(6)");
      assertThatThrownBy(() -> parse(parser, "b", "\"YWJj\"")) // 3 bytes
          .hasMessage("column 'b' holds \"YWJj\", which is 3 bytes long, longer than a VARBINARY(2) allows");
    }
    assertThatThrownBy(() -> json.parse(new InputRecord(1, "{\"s\": \"a\\ud800b\"}")))
        .hasMessage("column 's' holds \"a\ud800b\", which has the unpaired surrogate \\ud800 at character 2, which is "
            + "no Unicode character (UTF-8 cannot store it)");
    assertThat(json.parse(new InputRecord(1, "{\"s\": \"\\ud83d\\ude00\"}")).getString(6).toString())
        .as("a pair is one character").isEqualTo("\ud83d\ude00");
  }

  @Test
  void aRecordThatIsNotUtf8IsRefused() {
    InputRecord broken = new InputRecord(3, "{\"i\": 1, \"s\": \"\ufffd\"}", "the record is not valid UTF-8: ...");
    assertThatThrownBy(() -> RecordParser.jsonLines(TYPE).parse(broken)).isInstanceOf(InvalidRecordException.class)
        .hasMessage("the record is not valid UTF-8: ...");
    assertThatThrownBy(() -> RecordParser.csv(TYPE, "i,s").parse(new InputRecord(3, "1,\ufffd", "not UTF-8")))
        .hasMessage("not UTF-8");
  }

  /** The record with only {@code column}: JSON {@code value}, or CSV text of it (quotes removed). */
  private static RowData parse(RecordParser parser, String column, String value) {
    if (parser.format() == IngestFormat.JSONL) {
      return parser.parse(new InputRecord(1, "{\"" + column + "\": " + value + "}"));
    }
    List<String> fields = new java.util.ArrayList<>();
    for (String name : parser.rowType().getFieldNames()) {
      fields.add(name.equals(column) ? value.replace("\"", "") : "");
    }
    return parser.parse(new InputRecord(2, String.join(",", fields)));
  }

  /** How the reason shows a number: CSV text in quotes, JSON numbers as the exact decimal they are. */
  private static String quoted(RecordParser parser, String csv, String json) {
    return parser.format() == IngestFormat.JSONL ? json : "\"" + csv + "\"";
  }

  @Test
  void reasonsNameColumnValueAndRule() {
    assertThatThrownBy(() -> json("{\"i\": 1, \"t\": 200}")).isInstanceOf(InvalidRecordException.class)
        .hasMessage("column 't' holds 200, which is out of the range of a TINYINT (-128 to 127)");
    assertThatThrownBy(() -> json("{\"t\": 1}")).hasMessage("column 'i' is null, which its type INT NOT NULL forbids");
    assertThatThrownBy(() -> json("{\"i\": 1, \"d\": 1.234}"))
        .hasMessage("column 'd' holds 1.234, which has more than 2 decimal places, which a DECIMAL(5, 2) holds");
    assertThatThrownBy(() -> json("{\"i\": 1, \"s\": \"abcd\"}")).hasMessageContaining("is longer than a VARCHAR(3)");
    assertThatThrownBy(() -> json("{\"i\": 1, \"r\": {\"x\": \"a\"}}"))
        .hasMessageStartingWith("column 'r.x' holds \"a\", which is not an INT");
    assertThatThrownBy(() -> json("{\"i\": 1, \"l\": [1, 2.5]}")).hasMessageStartingWith("column 'l[1]' holds 2.5");
    assertThatThrownBy(() -> json("[1]")).hasMessage("the line is not a JSON object");
    assertThatThrownBy(() -> csv("i,s", "1,\"a\"b")).hasMessageContaining("text after the closing quote of field 2");
    assertThatThrownBy(() -> csv("i,s", "1")).hasMessage("the CSV record has 1 fields where the header has 2");
    assertThatThrownBy(() -> RecordParser.csv(TYPE, "i,nope")).hasMessageContaining("names column 'nope'");
  }
}
