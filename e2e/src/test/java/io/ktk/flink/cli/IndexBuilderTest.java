package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index a concurrent writer races with still covers every file of the version before it. */
class IndexBuilderTest {
  @TempDir Path dir;

  @Test
  void aWriterThatCommitsWhileTheFilesAreReadGetsItsFileIntoTheIndex() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    TestDataset plain = TestDataset.create(store, "plain", ReadCommandTest.SCHEMA, List.of("p"), List.of());
    plain.append(ReadCommandTest.ROWS);
    plain.publish();
    List<DataFile> raced = new java.util.ArrayList<>();
    // Just before the index claims version 1, another writer takes it with a file holding c = 42.
    RacingStore racing = new RacingStore(store, DatasetKeys.logEntryKey("plain", 1),
        () -> raced.addAll(plain.append(List.of(Arrays.asList(2L, 42L, "raced", 4.2, LocalDate.of(2024, 2, 1))))));

    IndexBuilder.Built built = new IndexBuilder(racing, "plain", "c").build(files -> Progress.silent());

    assertThat(built.rounds()).isEqualTo(2);
    assertThat(built.version()).isEqualTo(2);
    assertThat(built.files()).isEqualTo(3);
    Map<IndexValue, List<String>> index = new LogReader(store, "plain").latest().index("c");
    assertThat(index).hasSize(6).containsEntry(IndexValue.of(42L), List.of(raced.get(0).label()));
    assertThat(ktk("validate", "--store", dir.toUri().toString(), "--dataset", "plain").exitCode()).isZero();
  }
}
