package io.ktk.flink.state.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import org.junit.jupiter.api.Test;

class KeyColumnsTest {

  @Test
  void nullPartitionValueIsRejectedWithColumnAndRole() {
    assertThatThrownBy(() -> KeyColumns.checkNotNull("sales", "p", KeyColumns.Role.PARTITION, null))
        .isInstanceOf(InvalidValueException.class)
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot write to dataset 'sales': column 'p' is a partition column and may not be null");
  }

  @Test
  void nullDimensionAndIndexValuesNameTheirRole() {
    assertThatThrownBy(() -> KeyColumns.checkNotNull("cube++seed", "x", KeyColumns.Role.DIMENSION, null))
        .hasMessageContaining("column 'x' is a dimension column and may not be null");
    assertThatThrownBy(() -> KeyColumns.checkNotNull("ds", "i", KeyColumns.Role.INDEX, null))
        .hasMessageContaining("column 'i' is an index column and may not be null");
  }

  @Test
  void nanIsAValueNotANull() {
    assertThat(KeyColumns.checkNotNull("ds", "p", KeyColumns.Role.PARTITION, Double.NaN)).isNaN();
    assertThat(KeyColumns.checkNotNull("ds", "p", KeyColumns.Role.PARTITION, "")).isEmpty();
  }
}
