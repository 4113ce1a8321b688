package io.ktk.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.ingest.source.InputRecord;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
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
