package io.ktk.flink.cli;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.DuplicateCellDetector;
import io.ktk.flink.state.store.ObjectStore;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;

/** {@code ktk validate}: checks a dataset or a cube from end to end and lists every problem found. */
@Command(
    name = "validate",
    sortOptions = false,
    description = {
      "Checks a dataset or every dataset of a cube and lists the problems found (exit code 1 if any).",
      "Checked: the log; the published metadata against the log; _common_metadata against the committed "
          + "schema; every data file's footer (it exists and reads, its physical schema fits the committed "
          + "one, its row count and size are as logged); every secondary index against the values the files "
          + "hold (index columns are read from every file). For a cube also the cube rules: one seed, the "
          + "same partition keys, dimension columns, payload columns in one dataset only, the seed's "
          + "indices, and no cell twice in a dataset (reads the dimension columns). Warnings (e.g. "
          + "unreferenced files) do not fail."
    },
    footer = {"", "Example:", "  ktk validate --store file:///data --cube sales"})
final class ValidateCommand extends StoreCommand {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Override
  void checkUsage() {
    target.check(spec.commandLine());
  }

  @Override
  int run(ObjectStore store) throws Exception {
    PrintWriter out = out();
    int problems = 0;
    List<String> cubeProblems = new ArrayList<>();
    CubeDatasets cube = null;
    if (target.isCube()) {
      try {
        cube = CubeDatasets.load(store, target.cube);
        if (cube.problem() != null) {
          cubeProblems.add(cube.problem());
        }
      } catch (CorruptDatasetException e) {
        // A dataset that cannot be read: its own check below says why; the cube rules cannot be checked.
        cubeProblems.add("the cube rules were not checked: " + e.getMessage());
      }
    }
    for (String uuid : target.uuids(store)) {
      DatasetValidator validator;
      try (Progress progress = progress("checking " + uuid, -1)) {
        validator = new DatasetValidator(store, uuid).validate(progress);
      }
      List<String> datasetProblems = new ArrayList<>(validator.problems());
      if (cube != null && cube.spec() != null && validator.state() != null && datasetProblems.isEmpty()) {
        checkCells(store, cube.spec(), uuid, datasetProblems);
      }
      DatasetState state = validator.state();
      out.println("dataset " + uuid + (state != null && state.exists()
          ? " at version " + state.version() + " (" + state.files().size() + " files):" : ":"));
      datasetProblems.forEach(problem -> out.println("  PROBLEM: " + problem));
      validator.warnings().forEach(warning -> out.println("  warning: " + warning));
      if (datasetProblems.isEmpty()) {
        out.println("  ok");
      }
      problems += datasetProblems.size();
    }
    if (cube != null) {
      out.println("cube " + target.cube + ":");
      cubeProblems.forEach(problem -> out.println("  PROBLEM: " + problem));
      if (cubeProblems.isEmpty()) {
        out.println("  ok");
      }
      problems += cubeProblems.size();
    }
    if (problems > 0) {
      err().println("Found " + problems + " problem(s) in " + target.describe() + " in " + store.url());
      return Ktk.ERROR;
    }
    return Ktk.OK;
  }

  /** Rule 8: no cell (partition and dimension columns) twice in one dataset; checked partition by partition. */
  private static void checkCells(ObjectStore store, CubeSpec cube, String uuid, List<String> problems)
      throws java.io.IOException {
    String datasetId = CubeNames.datasetId(cube.name(), uuid).orElseThrow();
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, uuid);
    List<Field> cellFields = new ArrayList<>();
    for (String column : cube.cellColumns()) {
      Field field = snapshot.schema().getFields().stream().filter(f -> f.getName().equals(column)).findFirst().orElse(null);
      if (field != null) {
        cellFields.add(field);
      }
    }
    List<String> names = cellFields.stream().map(Field::getName).toList();
    if (names.isEmpty()) {
      return;
    }
    try {
      // read as a plain dataset: every row of every file, not the cells a cube query would merge
      QueryPlan plan = new PlainDatasetSnapshot(snapshot).plan(DatasetQuery.builder().columns(names).build()
          .toCubeQuery());
      CubeReader reader = new CubeReader(store, plan);
      for (QueryGroup partition : plan.groups()) {
        // A cell includes the partition columns, so a duplicate can only occur within one partition.
        DuplicateCellDetector detector = new DuplicateCellDetector(cube.name(), datasetId, names);
        for (Iterator<ResultBatch> batches = reader.batches(List.of(partition)); batches.hasNext(); ) {
          ResultBatch batch = batches.next();
          for (int row = 0; row < batch.rowCount(); row++) {
            detector.add(batch.row(row));
          }
        }
      }
    } catch (KtkException e) {
      problems.add(e.getMessage());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
