package io.ktk.flink.cluster;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The {@code id} column of every row of a dataset's latest version, read from its Parquet files. */
final class ParquetIds {
  private ParquetIds() {}

  static List<Long> read(ObjectStore store, String dataset) throws IOException {
    List<Long> ids = new ArrayList<>();
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, dataset);
    for (Partition partition : snapshot.partitions()) {
      for (DataFile file : partition.files()) {
        try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(dataset))) {
          for (List<Object> row : reader.readAll(List.of("id"))) {
            ids.add((Long) row.get(0));
          }
        }
      }
    }
    return ids;
  }
}
