package io.ktk.flink.sink;

import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.writer.KartothekWriter;
import io.ktk.flink.state.rowformat.RowBuffer;
import io.ktk.flink.state.rowformat.RowConverter;
import io.ktk.flink.state.rowformat.RowDataEncoder;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The rows of a cube sink's datasets on their way to the writers: each record becomes a row of
 * {@link CubeSinkConfig#unionType()} carrying its dataset's number and the hash of its cell, so that
 * the datasets travel as one stream to one writer operator, and every record of one cell of one
 * dataset reaches the same writer subtask (the stream is keyed by the cell hash), where duplicate
 * cells are found.
 */
final class CubeRows {
  private CubeRows() {}

  /** The hash of a row's cell (partition and dimension values, in the unordered row format: -0.0 = 0.0, NaNs equal). */
  static final class CellHash {
    private final RowDataEncoder encoder;
    private final RowBuffer buffer = new RowBuffer();

    CellHash(KartothekSinkConfig dataset, List<String> cellColumns) {
      RowType rowType = dataset.rowType();
      int[] positions = cellColumns.stream().mapToInt(dataset::position).toArray();
      List<Field> fields = new ArrayList<>();
      for (int position : positions) {
        fields.add(FlinkArrowTypes.toField(rowType.getFieldNames().get(position), rowType.getTypeAt(position)));
      }
      this.encoder = RowConverter.unordered(fields).rowDataEncoder(rowType, positions);
    }

    int hash(RowData row) {
      encoder.encode(row, buffer);
      long hash = buffer.hash();
      return (int) (hash ^ (hash >>> 32));
    }
  }

  /** Turns a record of dataset number {@code dataset} into a union row. */
  static final class Tag implements MapFunction<RowData, RowData> {
    private static final long serialVersionUID = 1L;
    private final CubeSinkConfig config;
    private final int dataset;
    private transient int[] positions;
    private transient RowData.FieldGetter[] getters;
    private transient CellHash cellHash;
    private transient int width;

    Tag(CubeSinkConfig config, int dataset) {
      this.config = config;
      this.dataset = dataset;
    }

    @Override
    public RowData map(RowData row) {
      if (getters == null) {
        KartothekSinkConfig declared = config.datasets().get(dataset);
        positions = config.unionPositions(dataset);
        width = config.unionType().getFieldCount();
        getters = new RowData.FieldGetter[positions.length];
        for (int i = 0; i < positions.length; i++) {
          getters[i] = RowData.createFieldGetter(declared.rowType().getTypeAt(i), i);
        }
        cellHash = new CellHash(declared, config.cellColumns(dataset));
      }
      GenericRowData out = new GenericRowData(row.getRowKind(), width);
      out.setField(0, dataset);
      out.setField(1, cellHash.hash(row));
      for (int i = 0; i < positions.length; i++) {
        out.setField(positions[i], getters[i].getFieldOrNull(row));
      }
      return out;
    }
  }

  /** Keys union rows by their cell hash. */
  static final class ByCell implements KeySelector<RowData, Integer> {
    private static final long serialVersionUID = 1L;

    @Override
    public Integer getKey(RowData row) {
      return row.getInt(1);
    }
  }

  /** Reads union rows as rows of their datasets, through one reused projection per dataset. */
  static final class Routing implements KartothekWriter.DatasetRouting {
    private final ProjectedRowData[] views;

    Routing(CubeSinkConfig config) {
      views = new ProjectedRowData[config.datasets().size()];
      for (int d = 0; d < views.length; d++) {
        views[d] = ProjectedRowData.from(config.unionPositions(d));
      }
    }

    @Override
    public int dataset(RowData record) {
      return record.getInt(0);
    }

    @Override
    public RowData row(int dataset, RowData record) {
      return views[dataset].replaceRow(record);
    }
  }
}
