package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import java.time.LocalDate;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

class PartitionLabelTest {
  static final Field P = PartitionValuesTest.field("p", new ArrowType.Int(64, true));
  static final Field Q = PartitionValuesTest.field("q", ArrowType.Utf8.INSTANCE);
  static final Field DAY = PartitionValuesTest.field("day", new ArrowType.Date(DateUnit.DAY));
  static final String ID = "0123456789abcdef0123456789abcdef";

  @Test
  void labelIsKeySegmentsThenFileId() {
    PartitionLabel label = PartitionLabel.of(List.of(P, Q), List.of(1L, "a b/c"), ID);
    assertThat(label).hasToString("p=1/q=a%20b%2Fc/" + ID);
    assertThat(label.physicalPartition()).isEqualTo("p=1/q=a%20b%2Fc");
    assertThat(label.typedValues()).containsExactly(1L, "a b/c");
    assertThat(DatasetKeys.dataFileKey("ds", label)).isEqualTo("ds/table/p=1/q=a%20b%2Fc/" + ID + ".parquet");
  }

  @Test
  void columnNamesAreEncodedToo() {
    Field odd = PartitionValuesTest.field("a b=c", ArrowType.Utf8.INSTANCE);
    PartitionLabel label = PartitionLabel.of(List.of(odd), List.of("x"), ID);
    assertThat(label).hasToString("a%20b%3Dc=x/" + ID);
    assertThat(PartitionLabel.parse(label.toString(), List.of(odd))).isEqualTo(label);
  }

  @Test
  void parseIsTheInverseOfToString() {
    PartitionLabel label = PartitionLabel.of(List.of(P, Q, DAY), List.of(-3L, "", LocalDate.of(2020, 1, 2)), ID);
    assertThat(label).hasToString("p=-3/q=/day=2020-01-02/" + ID);
    PartitionLabel parsed = PartitionLabel.parse(label.toString(), List.of(P, Q, DAY));
    assertThat(parsed).isEqualTo(label);
    assertThat(parsed.typedValues()).containsExactly(-3L, "", LocalDate.of(2020, 1, 2));
    assertThat(PartitionLabel.parse(ID, List.of())).hasToString(ID);
    assertThat(PartitionLabel.parse(ID, List.of()).physicalPartition()).isEmpty();
  }

  @Test
  void parsedLabelsKeepTheirTextEvenWithLowercaseEscapes() {
    PartitionLabel parsed = PartitionLabel.parse("p=1/q=a%2fb/part_1", List.of(P, Q));
    assertThat(parsed).hasToString("p=1/q=a%2fb/part_1");
    assertThat(parsed.typedValues()).containsExactly(1L, "a/b");
  }

  @Test
  void newFileIdsSortInTheOrderTheyWereCreated() {
    java.util.List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      ids.add(PartitionLabel.newFileId());
    }
    assertThat(ids).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void newFileIdsAre32LowercaseHexDigits() {
    String id = PartitionLabel.newFileId();
    assertThat(id).matches("[0-9a-f]{32}");
    assertThat(PartitionLabel.newFileId()).isNotEqualTo(id);
  }

  @Test
  void labelsThatDoNotFitTheDatasetsPartitionKeysAreCorrupt() {
    assertCorrupt("p=1/" + ID, List.of(P, Q), "it has 1 partition key segment(s), the dataset's partition keys are [p, q]");
    assertCorrupt("p=1/q=a/r=2/" + ID, List.of(P, Q), "it has 3 partition key segment(s)");
    assertCorrupt("q=a/p=1/" + ID, List.of(P, Q), "segment 1 is column 'q', expected 'p' (partition keys [p, q])");
    assertCorrupt("p1/q=a/" + ID, List.of(P, Q), "segment 'p1' is not <column>=<value>");
    assertCorrupt("p=1=2/q=a/" + ID, List.of(P, Q), "segment 'p=1=2' is not <column>=<value>");
    assertCorrupt("p=1/q=a/", List.of(P, Q), "the file id is empty");
    assertCorrupt("p=abc/q=a/" + ID, List.of(P, Q), "value 'abc' of column p is not a valid int64");
    assertCorrupt("%70=1/q=a/" + ID, List.of(P, Q), "column name '%70' is not canonically encoded (expected 'p')");
  }

  @Test
  void boolPartitionKeysAndNullValuesAreRefused() {
    Field flag = PartitionValuesTest.field("flag", ArrowType.Bool.INSTANCE);
    assertThatThrownBy(() -> PartitionLabel.of(List.of(flag), List.of(true), ID))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column flag");
    assertThatThrownBy(() -> PartitionLabel.of(List.of(P), java.util.Arrays.asList((Object) null), ID))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column p")
        .hasMessageContaining("null");
  }

  @Test
  void aSegmentLongerThanAFileNameMayBeIsRefused() {
    // "q=" and 253 characters: 255 bytes, the longest directory name
    assertThat(PartitionLabel.of(List.of(Q), List.of("x".repeat(253)), ID).physicalPartition()).hasSize(255);
    assertThatThrownBy(() -> PartitionLabel.of(List.of(Q), List.of("x".repeat(254)), ID))
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot use " + "x".repeat(60) + "... (254 characters) as a partition value of column q: its "
            + "directory name q=" + "x".repeat(38) + "... is 256 bytes long once percent-encoded, and a file or "
            + "directory name may have at most 255");
    // ä (2 UTF-8 bytes) and € (3 bytes) become 15 bytes of %XX escapes: 60 characters, 452 bytes with "q="
    assertThatThrownBy(() -> PartitionLabel.of(List.of(P, Q), List.of(1L, "\u00e4\u20ac".repeat(30)), ID))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("is 452 bytes long once percent-encoded");
  }

  private static void assertCorrupt(String label, List<Field> keys, String reason) {
    assertThatThrownBy(() -> PartitionLabel.parse(label, keys))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageStartingWith("Cannot read partition label " + label + ": ")
        .hasMessageContaining(reason);
  }
}
