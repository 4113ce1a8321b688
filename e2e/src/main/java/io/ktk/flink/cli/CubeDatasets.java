package io.ktk.flink.cli;

import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.CubeValidation;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The datasets of a cube as they are now, and what the cube rules say about them: the cube spec
 * recorded by the seed ({@link CubeValidation#discover}) and the result of {@link
 * CubeValidation#validate} (rules 1 to 7; rule 8, duplicate cells, needs the rows: see {@code ktk
 * validate}).
 *
 * @param datasets snapshot of each dataset, by dataset id in id order
 * @param spec the cube's spec, or null when it cannot be discovered
 * @param problem why the datasets do not form a valid cube, or null when they do
 */
record CubeDatasets(
    String cube, Map<String, DatasetSnapshot> datasets, Map<String, DatasetMetadata> published, CubeSpec spec,
    String problem) {

  static CubeDatasets load(ObjectStore store, String cube) throws IOException {
    Map<String, DatasetSnapshot> datasets = new TreeMap<>();
    Map<String, DatasetMetadata> published = new TreeMap<>();
    for (String uuid : Target.cubeUuids(store, cube)) {
      String id = CubeNames.datasetId(cube, uuid).orElseThrow();
      datasets.put(id, DatasetSnapshot.latest(store, uuid));
      DatasetMetadata.load(store, uuid).ifPresent(metadata -> published.put(id, metadata));
    }
    CubeSpec spec = null;
    String problem = null;
    try {
      spec = CubeValidation.discover(cube, published);
      List<CubeValidation.CubeDataset> checked = new ArrayList<>();
      for (Map.Entry<String, DatasetMetadata> entry : published.entrySet()) {
        Set<String> columns = datasets.get(entry.getKey()).schema().getFields().stream()
            .map(Field::getName).collect(Collectors.toSet());
        checked.add(new CubeValidation.CubeDataset(entry.getKey(), entry.getValue(), columns));
      }
      CubeValidation.validate(spec, checked);
    } catch (KtkException e) {
      problem = e.getMessage();
    }
    return new CubeDatasets(cube, datasets, new LinkedHashMap<>(published), spec, problem);
  }

  /** The seed's dataset id first when known, then the others by id: the order to show them in. */
  List<String> ids() {
    List<String> ids = new ArrayList<>(datasets.keySet());
    if (spec != null && ids.remove(spec.seedDatasetId())) {
      ids.add(0, spec.seedDatasetId());
    }
    return ids;
  }
}
