package io.ktk.flink.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextRecordReaderTest {
  @TempDir Path dir;

  private static List<InputRecord> readAll(Path file, long offset, long line, boolean csv) throws Exception {
    List<InputRecord> records = new ArrayList<>();
    try (TextRecordReader reader = new TextRecordReader(file, offset, line, csv)) {
      for (InputRecord record = reader.next(); record != null; record = reader.next()) {
        records.add(record);
      }
    }
    return records;
  }

  @Test
  void csvRecordsSpanQuotedLineBreaksAndKeepTheLineTheyStartOn() throws Exception {
    Path file = Files.writeString(dir.resolve("in.csv"), "a,b\r\n1,\"x\r\ny\"\r\n\r\n2,\"say \"\"hi\"\"\"\r\n3,z");

    assertThat(readAll(file, 0, 1, true)).containsExactly(
        new InputRecord(1, "a,b"),
        new InputRecord(2, "1,\"x\r\ny\""),
        new InputRecord(5, "2,\"say \"\"hi\"\"\""),
        new InputRecord(6, "3,z"));
  }

  @Test
  void jsonLinesEndAtEveryLineFeedEvenInsideQuotes() throws Exception {
    Path file = Files.writeString(dir.resolve("in.jsonl"), "{\"a\": \"x\n\"}\n");

    assertThat(readAll(file, 0, 1, false)).containsExactly(new InputRecord(1, "{\"a\": \"x"),
        new InputRecord(2, "\"}"));
  }

  @Test
  void readingOnFromAnyPositionGivesTheSameRecords() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      text.append(i % 3 == 0 ? "\"multi\nline é " + i + "\"" : "plain ü " + i).append(i % 2 == 0 ? "\r\n" : "\n");
    }
    Path file = Files.writeString(dir.resolve("in.csv"), text, StandardCharsets.UTF_8);
    List<InputRecord> all = readAll(file, 0, 1, true);
    assertThat(all).hasSize(200);

    try (TextRecordReader reader = new TextRecordReader(file, 0, 1, true)) {
      for (int i = 0; i < 200; i++) {
        List<InputRecord> rest = readAll(file, reader.offset(), reader.line(), true);
        assertThat(rest).as("records after record %s", i).isEqualTo(all.subList(i, 200));
        reader.next();
      }
    }
  }

  @Test
  void aRecordThatIsNotUtf8ComesWithTheReasonAndARealReplacementCharacterDoesNot() throws Exception {
    byte[] bytes = "{\"s\": \"caf\u00e9\"}\n{\"s\": \"ok \ufffd\"}\n{\"s\": \"x\"}\n".getBytes(StandardCharsets.UTF_8);
    byte[] broken = bytes.clone();
    broken[10] = (byte) 0xFF; // the first byte of é (0xC3 0xA9) in line 1
    Path file = Files.write(dir.resolve("in.jsonl"), broken);

    List<InputRecord> records = readAll(file, 0, 1, false);

    assertThat(records).hasSize(3);
    assertThat(records.get(0).encodingError())
        .isEqualTo("the record is not valid UTF-8: 0xFF at byte 11 of the record is malformed (the input must be UTF-8)");
    assertThat(records.get(1).encodingError()).as("U+FFFD written as UTF-8 is a character like any other").isNull();
    assertThat(records.get(1).text()).isEqualTo("{\"s\": \"ok \ufffd\"}");
    assertThat(records.get(2).encodingError()).isNull();
  }

  @Test
  void splitSerializerVersion1Bytes() throws Exception {
    TextFileSplitSerializer serializer = new TextFileSplitSerializer();
    byte[] bytes = serializer.serialize(new TextFileSplit("/in.jsonl", 10, 3));

    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("00092f696e2e6a736f6e6c" + "000000000000000a"
        + "0000000000000003");
    assertThat(serializer.deserialize(1, bytes)).isEqualTo(new TextFileSplit("/in.jsonl", 10, 3));
    assertThat(new PendingSplitsSerializer().deserialize(1, new PendingSplitsSerializer().serialize(
        List.of(new TextFileSplit("/a", 0, 1), new TextFileSplit("/b", 5, 2)))))
        .containsExactly(new TextFileSplit("/a", 0, 1), new TextFileSplit("/b", 5, 2));
  }
}
