package io.ktk.flink.source.testing;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A plain dataset's rows read in process (the Java API), as lists of typed values, for comparisons. */
public final class PlainDatasetRows {
  private PlainDatasetRows() {}

  /** The plan of {@code query} at the latest version of dataset {@code uuid}. */
  public static QueryPlan plan(ObjectStore store, String uuid, DatasetQuery query) throws IOException {
    return PlainDatasetSnapshot.latest(store, uuid).plan(query.toCubeQuery());
  }

  /** The rows of {@code query} at the latest version of dataset {@code uuid}, in order. */
  public static List<List<Object>> read(ObjectStore store, String uuid, DatasetQuery query) throws IOException {
    return read(new CubeReader(store, plan(store, uuid, query)));
  }

  /** The rows a reader returns, in order. */
  public static List<List<Object>> read(CubeReader reader) {
    List<List<Object>> rows = new ArrayList<>();
    reader.rows().forEachRemaining(rows::add);
    return rows;
  }
}
