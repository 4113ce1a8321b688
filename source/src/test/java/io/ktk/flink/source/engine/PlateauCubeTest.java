package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cube written the way Kartothek 5.3 / plateau write one (pyarrow files from pandas, ZSTD,
 * narrower integer types than the normalized schema, large_string, index files, metadata JSON with
 * the cube keys, no commit log) is queried like our own.
 */
class PlateauCubeTest {
  @TempDir Path dir;

  @Test
  void aCubeWrittenByPlateauIsQueriedLikeOurOwn() throws IOException {
    Python.run("""
        import json, os, sys
        import pandas as pd, pyarrow as pa, pyarrow.parquet as pq
        root = sys.argv[1]
        cube_keys = {"ktk_cube_dimension_columns": ["x"], "ktk_cube_partition_columns": ["p"]}

        def write(dataset, is_seed, schema, partitions, index):
            uuid = "kc++" + dataset
            labels = {}
            for p, frame in partitions.items():
                label = f"p={p}/{dataset}{p}" + "0" * 30
                path = os.path.join(root, uuid, "table", label + ".parquet")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                table = pa.Table.from_pandas(pd.DataFrame(frame), preserve_index=False)
                pq.write_table(table, path, compression="zstd")
                labels[label] = frame
            pq.write_metadata(schema, os.path.join(root, uuid, "table", "_common_metadata"))
            indices = {}
            for column, values in index.items():
                key = f"{uuid}/indices/{column}/2024-01-01T00%3A00%3A00.by-dataset-index.parquet"
                os.makedirs(os.path.dirname(os.path.join(root, key)), exist_ok=True)
                rows = sorted({v for frame in labels.values() for v in frame[column]})
                pq.write_table(pa.table({column: pa.array(rows, values),
                    "partition": pa.array([[l for l, f in labels.items() if v in f[column]] for v in rows],
                                          pa.list_(pa.string()))}), os.path.join(root, key))
                indices[column] = key
            meta = {"dataset_metadata_version": 4, "dataset_uuid": uuid,
                    "partitions": {l: {"files": {"table": f"{uuid}/table/{l}.parquet"}} for l in labels},
                    "partition_keys": ["p"], "indices": indices,
                    "metadata": dict(cube_keys, ktk_cube_is_seed=is_seed)}
            json.dump(meta, open(os.path.join(root, uuid + ".by-dataset-metadata.json"), "w"))

        write("seed", True, pa.schema([("p", pa.int64()), ("x", pa.int64())]),
              {1: {"x": pa.array([3, 1, 2], pa.int32()).to_pandas()}, 2: {"x": [1]}}, {"x": pa.int64()})
        write("enrich", False, pa.schema([("p", pa.int64()), ("v", pa.float64()), ("name", pa.large_string()),
                                          ("x", pa.int64())]),
              {1: {"x": [1, 3], "v": [0.5, float("nan")], "name": ["one", None]},
               3: {"x": [1], "v": [9.0], "name": ["orphan"]}}, {})
        """, dir.toString());
    LocalObjectStore store = new LocalObjectStore(dir);

    List<List<Object>> all = query(store, CubeQuery.builder().columns("p", "x", "v", "name").build());
    List<List<Object>> positive = query(store, CubeQuery.builder().columns("p", "x", "v").where("v > 0").build());

    // pandas turns NaN into null on the way to Arrow: the missing v of x=3 is null like a missing row
    assertThat(all).containsExactly(
        Arrays.asList(1L, 1L, 0.5, "one"),
        Arrays.asList(1L, 2L, null, null),
        Arrays.asList(1L, 3L, null, null),
        Arrays.asList(2L, 1L, null, null));
    assertThat(positive).containsExactly(Arrays.asList(1L, 1L, 0.5));
  }

  private static List<List<Object>> query(LocalObjectStore store, CubeQuery query) throws IOException {
    QueryPlan plan = CubeSnapshot.latest(store, "kc").plan(query);
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, plan).rows().forEachRemaining(rows::add);
    return rows;
  }
}
