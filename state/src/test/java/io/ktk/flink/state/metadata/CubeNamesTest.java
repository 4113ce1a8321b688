package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import org.junit.jupiter.api.Test;

class CubeNamesTest {
  @Test
  void datasetUuidIsCubeSeparatorDatasetIdAndParsesBack() {
    assertThat(CubeNames.datasetUuid("weather", "seed")).isEqualTo("weather++seed");
    assertThat(CubeNames.parse("weather++seed")).isEqualTo(new CubeNames.DatasetName("weather", "seed"));
    assertThat(CubeNames.parse("my-cube_1++enrich+v2").datasetId()).isEqualTo("enrich+v2");
    assertThat(CubeNames.uuidPrefix("weather")).isEqualTo("weather++");
    assertThat(CubeNames.datasetId("weather", "weather++seed")).contains("seed");
    assertThat(CubeNames.datasetId("weather", "weather2++seed")).isEmpty();
    assertThat(CubeNames.datasetId("weather", "weather++a++b")).isEmpty();
  }

  @Test
  void namesFollowKartothekRules() {
    assertRefused("", "must not be empty");
    assertRefused("a/b", "no '/'");
    assertRefused("a.b", "only letters");
    assertRefused("a++b", "must not contain the separator '++'");
    assertRefused("a+", "must not start or end with '+'");
    assertRefused("+a", "must not start or end with '+'");
    assertThat(CubeNames.isValidName("a+b")).isTrue();
    assertThat(CubeNames.isValidName("A-Z_0")).isTrue();
  }

  @Test
  void uuidsThatAreNotCubeDatasetsAreRefused() {
    assertThatThrownBy(() -> CubeNames.parse("plain"))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot read cube dataset uuid 'plain': it has no '++'");
    assertThatThrownBy(() -> CubeNames.parse("a++b++c"))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("'a++b++c'")
        .hasMessageContaining("dataset id 'b++c'");
    assertThatThrownBy(() -> CubeNames.parse("++seed"))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("cube name '': it must not be empty");
  }

  private static void assertRefused(String name, String reason) {
    assertThatThrownBy(() -> CubeNames.datasetUuid(name, "seed"))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot use cube name '" + name + "'")
        .hasMessageContaining(reason);
    assertThatThrownBy(() -> CubeNames.datasetUuid("cube", name))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot use dataset id '" + name + "'");
  }
}
