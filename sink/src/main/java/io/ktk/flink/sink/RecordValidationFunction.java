package io.ktk.flink.sink;

import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.writer.DatasetContract;
import io.ktk.flink.sink.writer.RecordValidator;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.ObjectStore;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Checks records in front of the sink writer with the writer's own rules ({@link
 * RecordValidator}): valid records pass on, a refused one goes to the side output {@link
 * #REJECTED} with its reason (policy DEAD_LETTER) or fails the job without restarts (policy
 * FAIL). Like the writer, it fails at start when the sink does not fit the committed dataset.
 * With a primary key, the {@code -U} rows of a changelog stop here.
 */
final class RecordValidationFunction extends ProcessFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  static final OutputTag<RejectedRecord> REJECTED =
      new OutputTag<>("kartothek-rejected", TypeInformation.of(RejectedRecord.class));

  private final KartothekSinkConfig config;
  private transient RecordValidator validator;
  private transient Counter rejected;

  RecordValidationFunction(KartothekSinkConfig config) {
    this.config = config;
  }

  @Override
  public void open(OpenContext openContext) throws Exception {
    List<String> indexColumns;
    try (ObjectStore store = config.store().open()) {
      indexColumns = DatasetContract.check(config, new LogReader(store, config.dataset()).latestOrPublished());
    } catch (KtkValidationException e) {
      throw new SuppressRestartsException(e);
    }
    validator = new RecordValidator(config, indexColumns);
    rejected = getRuntimeContext().getMetricGroup().addGroup("kartothek").counter("recordsRejected");
  }

  @Override
  public void processElement(RowData row, Context context, Collector<RowData> out) {
    try {
      if (validator.check(row) == RecordValidator.IGNORED) {
        return; // a -U of a changelog: the +U after it carries the new row
      }
    } catch (KtkValidationException e) {
      rejected.inc();
      if (config.validationPolicy() == ValidationPolicy.FAIL) {
        throw new SuppressRestartsException(
            new KtkValidationException(e.getMessage() + " (record " + validator.render(row) + ")", e));
      }
      context.output(REJECTED, new RejectedRecord(validator.render(row), e.getMessage()));
      return;
    }
    out.collect(row);
  }
}
