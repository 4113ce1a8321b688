package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.testing.Python;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's main command: the demo job on an embedded Flink into a local directory. */
class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void demoStreamsACubeExactlyOnceQueriesItAndPlateauReadersAgree() throws Exception {
    KtkRun first = ktk("demo", "--store", dir.toUri().toString(), "--records", "20000", "--checkpoint-interval", "200ms");
    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.out()).contains("demo++readings: version").contains("20000 rows").contains("./ktk info");

    // The query it prints: a header, then at most 5 rows of sensor-7 with a high alert and a calibration.
    List<String> lines = Arrays.asList(first.out().split("\n"));
    int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("day ")).findFirst().orElseThrow());
    assertThat(lines.get(header)).containsSubsequence("day", "sensor", "ts", "reading", "offset", "location", "level");
    List<String> rows = lines.subList(header + 1, header + 6);
    assertThat(rows).allSatisfy(row -> assertThat(row).contains("sensor-7").endsWith("high"));

    KtkRun second = ktk("demo", "--store", dir.toUri().toString(), "--records", "5000");
    assertThat(second.exitCode()).as(second.toString()).isZero();
    assertThat(second.out()).contains("events 20000 to 24999").contains("25000 rows");

    // pyarrow, reading the files the published metadata names, checks the cube without our code:
    // every event once in the seed, an alert for exactly the readings above 28 or missing, one
    // calibration per sensor and day, and the cube keys Kartothek reads.
    String report = Python.run("""
        import json, os, sys, collections
        import pyarrow.parquet as pq
        root = sys.argv[1]
        def rows(uuid, columns):
            meta = json.load(open(os.path.join(root, uuid + ".by-dataset-metadata.json")))
            out = []
            for label, part in meta["partitions"].items():
                day = label.split("/")[0].split("=")[1]
                for r in pq.read_table(os.path.join(root, part["files"]["table"]), columns=columns).to_pylist():
                    r["day"] = day
                    out.append(r)
            return meta, out
        seed_meta, seed = rows("demo++readings", ["event_id", "sensor", "ts", "reading"])
        ids = collections.Counter(r["event_id"] for r in seed)
        _, alerts = rows("demo++alerts", ["sensor", "ts", "level"])
        _, calibration = rows("demo++calibration", ["sensor", "offset"])
        expected = {(r["sensor"], r["ts"]) for r in seed if r["reading"] is None or r["reading"] > 28}
        alerted = collections.Counter((r["sensor"], r["ts"]) for r in alerts)
        cells = collections.Counter((r["day"], r["sensor"]) for r in calibration)
        print(len(seed), len(ids), min(ids), max(ids), max(ids.values()))
        print(set(alerted) == expected, max(alerted.values()), len(expected) > 0)
        print(len(cells), sorted(set(cells.values())))
        print(seed_meta["metadata"]["ktk_cube_is_seed"], sorted(seed_meta["indices"]))
        """, dir.toString());
    assertThat(report.strip().split("\n")).containsExactly(
        "25000 25000 0 24999 1",
        "True 1 True",
        "700 [2]", // both runs wrote every sensor's calibration of every day: two files, one cell
        "True ['sensor']");
  }
}
