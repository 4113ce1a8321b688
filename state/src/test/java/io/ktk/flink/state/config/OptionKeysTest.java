package io.ktk.flink.state.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionKeysTest {
  private static final List<String> SINK_KEYS =
      List.of("store", "dataset", "partition-columns", "index-columns", "compression", "row-group-size");

  @Test
  void typosGetTheClosestKey() {
    assertThat(OptionKeys.closest("regoin", List.of("region", "endpoint", "path-style"))).contains("region");
    assertThat(OptionKeys.closest("index-colums", SINK_KEYS)).contains("index-columns");
    assertThat(OptionKeys.closest("partition-column", SINK_KEYS)).contains("partition-columns");
    assertThat(OptionKeys.closest("Dataset", SINK_KEYS)).contains("dataset");
    assertThat(OptionKeys.closest("compresion", SINK_KEYS)).contains("compression");
  }

  @Test
  void unrelatedKeysGetNoSuggestion() {
    assertThat(OptionKeys.closest("format", SINK_KEYS)).isEmpty();
    assertThat(OptionKeys.closest("ab", List.of("cd"))).isEmpty();
    assertThat(OptionKeys.closest("x", List.of())).isEmpty();
  }

  @Test
  void theMessageNamesTheKeyTheSuggestionAndTheAcceptedKeys() {
    assertThatThrownBy(() -> OptionKeys.check("build the sink of dataset 'events'", Set.of("index-colums", "zzz"),
        SINK_KEYS))
        .isInstanceOfSatisfying(UnknownOptionException.class, e -> {
          assertThat(e.key()).isEqualTo("index-colums");
          assertThat(e.closest()).contains("index-columns");
        })
        .hasMessage("Cannot build the sink of dataset 'events': unknown option 'index-colums' (did you mean "
            + "'index-columns'?) (and [zzz]); accepted options are [compression, dataset, index-columns, "
            + "partition-columns, row-group-size, store]");
  }

  @Test
  void knownKeysPass() {
    OptionKeys.check("x", Set.of("store", "dataset"), SINK_KEYS);
    OptionKeys.check("x", Set.of(), List.of());
  }

  @Test
  void distanceCountsASwapOnce() {
    assertThat(OptionKeys.distance("regoin", "region")).isEqualTo(1);
    assertThat(OptionKeys.distance("abc", "abc")).isZero();
    assertThat(OptionKeys.distance("", "abc")).isEqualTo(3);
    assertThat(OptionKeys.distance("kitten", "sitting")).isEqualTo(3);
  }
}
