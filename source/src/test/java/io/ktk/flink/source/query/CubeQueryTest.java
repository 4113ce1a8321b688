package io.ktk.flink.source.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CubeQueryTest {

  @Test
  void builderCollectsTextAndJavaConditionsAndKeepsTheirOrder() {
    CubeQuery query = CubeQuery.builder()
        .where("x == 1 and 0 <= z < 10")
        .where(Condition.in("y", 1L, 2L))
        .columns("x", "pred")
        .partitionBy("day")
        .datasets("enrich")
        .build();

    assertThat(query.conditionText()).isEqualTo("x == 1 and 0 <= z < 10 and y in (1, 2)");
    assertThat(query.columns()).containsExactly("x", "pred");
    assertThat(query.partitionBy()).containsExactly("day");
    assertThat(query.datasets()).containsExactly("enrich");
    assertThat(query.toBuilder().build()).isEqualTo(query);
  }

  @Test
  void aColumnNamedTwiceIsRefused() {
    assertThatThrownBy(() -> CubeQuery.builder().columns("x", "y", "x").build())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot build query: column 'x' appears twice in columns [x, y, x]");
    assertThatThrownBy(() -> CubeQuery.builder().partitionBy("p", "p").build())
        .hasMessageContaining("appears twice in partition_by");
  }

  @Test
  void anEmptyInListIsRefused() {
    assertThatThrownBy(() -> Condition.in("x"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("the list is empty");
  }
}
