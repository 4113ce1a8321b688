package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexValueTest {
  @Test
  void binaryValuesKeyAMapByContent() {
    Map<IndexValue, List<String>> index = new HashMap<>();
    index.put(IndexValue.of(new byte[] {1, 2}), List.of("p=1/a"));
    index.merge(IndexValue.of(new byte[] {1, 2}), List.of("p=2/b"),
        (a, b) -> List.of(a.get(0), b.get(0)));

    assertThat(index).hasSize(1);
    assertThat(index.get(IndexValue.of(new byte[] {1, 2}))).containsExactly("p=1/a", "p=2/b");
    assertThat(index).doesNotContainKey(IndexValue.of(new byte[] {1, 2, 0}));
  }

  @Test
  void otherValuesAreEqualAsTheirTypedValuesAre() {
    assertThat(IndexValue.of(7L)).isEqualTo(IndexValue.of(7L)).hasSameHashCodeAs(IndexValue.of(7L));
    assertThat(IndexValue.of(LocalDate.of(2024, 2, 29))).isEqualTo(IndexValue.of(LocalDate.of(2024, 2, 29)));
    assertThat(IndexValue.of(7L)).isNotEqualTo(IndexValue.of(7));
    assertThat(IndexValue.of("ab")).isNotEqualTo(IndexValue.of(new byte[] {'a', 'b'}));
    assertThat(IndexValue.of(new byte[] {'a', 'b'})).isNotEqualTo(IndexValue.of("ab"));
    // as the log has always compared them: a decimal's scale is part of the value
    assertThat(IndexValue.of(new BigDecimal("1.0"))).isNotEqualTo(IndexValue.of(new BigDecimal("1.00")));
  }

  @Test
  void binaryValuesPrintAsHexAndNullIsRefused() {
    assertThat(IndexValue.of(new byte[] {0x0a, (byte) 0xff})).hasToString("0x0aff");
    assertThat(IndexValue.of("x")).hasToString("x");
    assertThatThrownBy(() -> IndexValue.of(null)).isInstanceOf(NullPointerException.class).hasMessage("value is null");
  }
}
