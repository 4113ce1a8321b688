package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class DuplicateCellDetectorTest {
  @Test
  void valuesCompareAsRowsGroup() {
    DuplicateCellDetector detector = new DuplicateCellDetector("c", "seed", List.of("a"));
    detector.add(List.of(0.0));
    assertDuplicate(detector, List.of(-0.0), "a=-0.0");
    detector.add(List.of(Double.NaN));
    assertDuplicate(detector, List.of(Double.NaN), "a=NaN");
    detector.add(List.of(new byte[] {1, 2}));
    assertDuplicate(detector, List.of(new byte[] {1, 2}), "a=0x0102");
    detector.add(List.of(new BigDecimal("1.50")));
    assertDuplicate(detector, List.of(new BigDecimal("1.5")), "a=1.5");
    assertThat(detector.size()).isEqualTo(4);
  }

  @Test
  void reusedKeyBuffersAreCopied() {
    DuplicateCellDetector detector = new DuplicateCellDetector("c", "seed", List.of("a"));
    byte[] buffer = {1};
    detector.addKey(buffer, k -> List.of(k[0]));
    buffer[0] = 2;
    detector.addKey(buffer, k -> List.of(k[0]));
    assertThatThrownBy(() -> detector.addKey(new byte[] {1}, k -> List.of(k[0])))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("duplicate cell (a=1)");
  }

  private static void assertDuplicate(DuplicateCellDetector detector, List<?> cell, String shown) {
    assertThatThrownBy(() -> detector.add(cell))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot accept dataset seed of cube c: duplicate cell (" + shown + ")");
  }
}
