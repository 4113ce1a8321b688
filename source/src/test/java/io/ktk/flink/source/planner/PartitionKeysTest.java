package io.ktk.flink.source.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which partition keys the datasets of a cube may have, on cubes written the way Kartothek 5.3 /
 * plateau write them (metadata JSON and {@code _common_metadata}, no commit log): the seed the
 * cube's partition columns in order, another dataset some of them in any order; a partition column
 * held as a plain data column is refused (as Kartothek refuses it), a partition key that is not a
 * partition column of the cube too (Kartothek allows it; reading it is not supported).
 */
class PartitionKeysTest {
  /** Writes the metadata of a cube 'c' (partition columns p, q; dimension x) with the given datasets. */
  private static final String CUBE = """
      import json, os, sys
      import pyarrow as pa, pyarrow.parquet as pq
      root, spec = sys.argv[1], json.loads(sys.argv[2])
      types = {"p": pa.int64(), "q": pa.int64(), "x": pa.int64(), "k": pa.string(), "v": pa.float64()}
      for dataset, (keys, columns) in spec.items():
          uuid = "c++" + dataset
          os.makedirs(os.path.join(root, uuid, "table"), exist_ok=True)
          schema = pa.schema([(c, types[c]) for c in keys + sorted(set(columns) - set(keys))])
          pq.write_metadata(schema, os.path.join(root, uuid, "table", "_common_metadata"))
          meta = {"dataset_metadata_version": 4, "dataset_uuid": uuid, "partitions": {}, "partition_keys": keys,
                  "indices": {}, "metadata": {"ktk_cube_dimension_columns": ["x"],
                  "ktk_cube_partition_columns": ["p", "q"], "ktk_cube_is_seed": dataset == "seed"}}
          json.dump(meta, open(os.path.join(root, uuid + ".by-dataset-metadata.json"), "w"))
      """;

  @TempDir Path dir;

  private CubeSnapshot cube(String datasetsJson) throws IOException {
    Python.run(CUBE, dir.toString(), datasetsJson);
    return CubeSnapshot.latest(new LocalObjectStore(dir), "c");
  }

  @Test
  void anEnrichmentPartitionedBySomeOfThePartitionColumnsInAnyOrderOrNoneIsQueried() throws IOException {
    CubeSnapshot cube = cube("""
        {"seed": [["p", "q"], ["x"]], "byq": [["q"], ["x", "v"]], "none": [[], ["x", "k"]]}""");

    QueryPlan plan = cube.plan(CubeQuery.builder().columns("p", "q", "x", "v", "k").build());

    assertThat(plan.query().datasets()).extracting(DatasetRead::datasetId).containsExactly("seed", "byq", "none");
  }

  @Test
  void theSeedMustHaveThePartitionColumnsInOrder() throws IOException {
    CubeSnapshot cube = cube("""
        {"seed": [["q", "p"], ["x"]]}""");

    assertThatThrownBy(() -> cube.plan(CubeQuery.all()))
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot query cube 'c': the seed dataset 'seed' is partitioned by [q, p], but the cube's"
            + " partition columns are [p, q] (rule: the seed is partitioned by the cube's partition columns, in order)");
  }

  @Test
  void aPartitionColumnHeldAsAPlainDataColumnIsRefused() throws IOException {
    CubeSnapshot cube = cube("""
        {"seed": [["p", "q"], ["x"]], "e": [["p"], ["q", "x", "v"]]}""");

    assertThatThrownBy(() -> cube.plan(CubeQuery.all()))
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot query cube 'c': dataset 'e' holds the cube's partition column 'q' as a data column but"
            + " is partitioned by [p] only (rule, as in Kartothek 5.3: a dataset that has a partition column of the"
            + " cube is partitioned by it)");
  }

  @Test
  void aPartitionKeyThatIsNoPartitionColumnOfTheCubeIsRefusedAsNotSupported() throws IOException {
    CubeSnapshot cube = cube("""
        {"seed": [["p", "q"], ["x"]], "e": [["p", "k"], ["x", "v"]]}""");

    assertThatThrownBy(() -> cube.plan(CubeQuery.all()))
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot query cube 'c': dataset 'e' is partitioned by [p, k], and 'k' is not one of the cube's"
            + " partition columns [p, q]; Kartothek allows other partition keys, but reading them is not supported:"
            + " rewrite the dataset partitioned by some of [p, q] only");
  }
}
