package io.ktk.flink.ingest.deadletter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DeadLetterSink#collect} appends each committed dead letter once to the dead-letter file,
 * however often it is called and wherever an earlier call was interrupted (the states an
 * interrupted call leaves are laid out by hand here: journal, file and parts as they are then).
 */
class DeadLetterCollectTest {
  @TempDir Path dir;
  private Path parts;
  private Path file;

  @BeforeEach
  void parts() throws Exception {
    parts = Files.createDirectories(dir.resolve("parts"));
    file = dir.resolve("rejected.jsonl");
    Files.writeString(file, "{\"earlier\":1}\n", UTF_8);
    Files.writeString(parts.resolve("part-a.jsonl"), "{\"a\":1}\n{\"a\":2}\n", UTF_8);
    Files.writeString(parts.resolve("part-b.jsonl"), "{\"b\":1}\n", UTF_8);
    Files.writeString(parts.resolve(".inprogress-c"), "{\"never committed\":1}\n", UTF_8);
  }

  private List<String> lines() throws Exception {
    return Files.readAllLines(file, UTF_8);
  }

  @Test
  void committedPartsAreAppendedOnceAfterWhatTheFileHeld() throws Exception {
    assertThat(DeadLetterSink.collect(parts, file)).isEqualTo(3);
    assertThat(lines()).containsExactly("{\"earlier\":1}", "{\"a\":1}", "{\"a\":2}", "{\"b\":1}");

    // called again (say, the process stopped before it noted that it was done): same count, nothing appended
    assertThat(DeadLetterSink.collect(parts, file)).isEqualTo(3);
    assertThat(lines()).hasSize(4);
    try (var left = Files.list(parts)) {
      assertThat(left.map(p -> p.getFileName().toString()).toList()).containsExactly(DeadLetterSink.JOURNAL);
    }
    DeadLetterSink.cleanUp(parts);
    assertThat(parts).doesNotExist();
    assertThat(DeadLetterSink.collect(parts, file)).isZero();
  }

  @Test
  void anAppendInterruptedHalfWayIsRedoneFromTheLengthTheFileHadBefore() throws Exception {
    long before = Files.size(file);
    Files.writeString(parts.resolve(DeadLetterSink.JOURNAL), before + " -1\n", UTF_8);
    Files.writeString(file, "{\"a\":1}\n{\"a", UTF_8, java.nio.file.StandardOpenOption.APPEND);

    assertThat(DeadLetterSink.collect(parts, file)).isEqualTo(3);
    assertThat(lines()).containsExactly("{\"earlier\":1}", "{\"a\":1}", "{\"a\":2}", "{\"b\":1}");
  }

  @Test
  void aCollectionInterruptedAfterItsAppendDoesNotAppendAgain() throws Exception {
    long before = Files.size(file);
    Files.writeString(file, "{\"a\":1}\n{\"a\":2}\n{\"b\":1}\n", UTF_8, java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(parts.resolve(DeadLetterSink.JOURNAL), before + " 3\n", UTF_8);
    Files.delete(parts.resolve("part-a.jsonl")); // it was deleting the parts

    assertThat(DeadLetterSink.collect(parts, file)).isEqualTo(3);
    assertThat(lines()).containsExactly("{\"earlier\":1}", "{\"a\":1}", "{\"a\":2}", "{\"b\":1}");
    assertThat(parts.resolve("part-b.jsonl")).doesNotExist();
  }
}
