package io.ktk.flink.sink;

import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.writer.CubeContract;
import io.ktk.flink.sink.writer.RecordValidator;
import io.ktk.flink.sink.writer.RowKeyIds;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * Checks the records of a cube sink in front of its writer, on the stream keyed by cell hash (so
 * that all records of one cell of one dataset meet in one subtask): the record rules of each
 * dataset ({@link RecordValidator}: null partition, dimension or index values, timestamps,
 * partition labels) and the cube rule that a cell occurs once per dataset in one commit. The later
 * of two records with the same cell in one checkpoint is refused, with a reason naming dataset,
 * cell columns and values. Refused records go to the dead-letter side output (policy DEAD_LETTER)
 * or fail the job without restarts (policy FAIL).
 *
 * <p>The cells seen are kept per dataset as row-format keys ({@link RowKeyIds}: exact, no false
 * duplicates) and forgotten at every checkpoint barrier, when the writer chained behind this
 * function turns the checkpoint's records into files. They are bounded by the sink's memory budget
 * (in addition to the writer's buffers): a checkpoint with more cells than fit fails the job with
 * a message asking for a larger budget or more frequent checkpoints.
 */
final class CubeValidationFunction extends KeyedProcessFunction<Integer, RowData, RowData>
    implements CheckpointedFunction {
  private static final long serialVersionUID = 1L;

  private final CubeSinkConfig config;
  private transient RecordValidator[] validators;
  private transient RowKeyIds[] cells;
  private transient org.apache.flink.table.data.utils.ProjectedRowData[] views;
  private transient Counter rejected;

  CubeValidationFunction(CubeSinkConfig config) {
    this.config = config;
  }

  @Override
  public void open(OpenContext openContext) throws Exception {
    List<List<String>> indexColumns;
    try (ObjectStore store = config.datasets().get(0).store().open()) {
      List<DatasetState> committed = new ArrayList<>();
      for (KartothekSinkConfig dataset : config.datasets()) {
        committed.add(new LogReader(store, dataset.dataset()).latestOrPublished());
      }
      indexColumns = CubeContract.check(config.spec(), config.datasetIds(), config.datasets(), store, committed);
    } catch (KtkValidationException e) {
      throw new SuppressRestartsException(e);
    }
    int n = config.datasets().size();
    validators = new RecordValidator[n];
    cells = new RowKeyIds[n];
    views = new org.apache.flink.table.data.utils.ProjectedRowData[n];
    for (int d = 0; d < n; d++) {
      KartothekSinkConfig dataset = config.datasets().get(d);
      validators[d] = new RecordValidator(dataset, indexColumns.get(d));
      cells[d] = RowKeyIds.of(dataset.rowType(), config.cellColumns(d).stream().mapToInt(dataset::position).toArray());
      views[d] = org.apache.flink.table.data.utils.ProjectedRowData.from(config.unionPositions(d));
    }
    rejected = getRuntimeContext().getMetricGroup().addGroup("kartothek").counter("recordsRejected");
  }

  @Override
  public void processElement(RowData record, Context context, Collector<RowData> out) {
    int d = record.getInt(0);
    RowData row = views[d].replaceRow(record);
    try {
      if (validators[d].check(row) == RecordValidator.IGNORED) {
        return; // a -U of a changelog: the +U after it carries the new row
      }
      if (!config.datasets().get(d).hasPrimaryKey()) {
        checkCell(d, row); // with a changelog, a cell changed twice in a checkpoint is an upsert
      }
    } catch (KtkValidationException e) {
      rejected.inc();
      String text = validators[d].render(row);
      if (config.datasets().get(d).validationPolicy() == ValidationPolicy.FAIL) {
        throw new SuppressRestartsException(new KtkValidationException(e.getMessage() + " (record " + text + ")", e));
      }
      context.output(RecordValidationFunction.REJECTED, new RejectedRecord(text, e.getMessage()));
      return;
    }
    out.collect(record);
  }

  private void checkCell(int d, RowData row) {
    int size = cells[d].size();
    if (cells[d].idOf(row) < size) {
      KartothekSinkConfig dataset = config.datasets().get(d);
      List<String> columns = config.cellColumns(d);
      RowType rowType = dataset.rowType();
      StringBuilder values = new StringBuilder();
      for (String column : columns) {
        int position = dataset.position(column);
        if (values.length() > 0) {
          values.append(", ");
        }
        values.append(column).append('=').append(
            RowData.createFieldGetter(rowType.getTypeAt(position), position).getFieldOrNull(row));
      }
      throw new KtkValidationException("Cannot write to dataset '" + dataset.dataset() + "' of cube '" + config.cube()
          + "': duplicate cell (" + values + ") in one commit (rule: the cell columns " + columns
          + " identify a row within a dataset)");
    }
    long retained = 0;
    for (RowKeyIds ids : cells) {
      retained += ids.retainedBytes();
    }
    long budget = config.datasets().get(0).memoryBudgetBytes();
    if (retained > budget) {
      throw new SuppressRestartsException(new KtkValidationException("Cannot write cube '" + config.cube()
          + "': the cells of one checkpoint in this subtask need " + retained + " bytes, more than the memory budget"
          + " of " + budget + " bytes that bounds them; raise memory-budget or checkpoint more often"));
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    // The writer behind this function makes the records before this barrier one commit.
    for (RowKeyIds ids : cells) {
      ids.clear();
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    // Nothing to restore: after a restore, the records of the open checkpoint are replayed.
  }
}
