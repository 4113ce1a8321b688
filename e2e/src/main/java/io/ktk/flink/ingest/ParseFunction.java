package io.ktk.flink.ingest;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.ingest.deadletter.DeadLetter;
import io.ktk.flink.ingest.source.InputRecord;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkValidationException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.serialization.RuntimeContextInitializationContextAdapters;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Parses input records into rows. A record that cannot be parsed or converted goes, with its line
 * and reason, to the side output {@link #REJECTED} (policy DEAD_LETTER) or fails the job without
 * restarts (policy FAIL), since a replay would fail on it again.
 */
final class ParseFunction extends ProcessFunction<InputRecord, RowData> {
  private static final long serialVersionUID = 1L;

  static final OutputTag<DeadLetter> REJECTED = new OutputTag<>("ingest-rejected", TypeInformation.of(DeadLetter.class));

  private final RecordParser parser;
  private final String inputName;
  private final ValidationPolicy policy;

  ParseFunction(RecordParser parser, String inputName, ValidationPolicy policy) {
    this.parser = requireNonNull(parser, "parser is null");
    this.inputName = requireNonNull(inputName, "inputName is null");
    this.policy = requireNonNull(policy, "policy is null");
  }

  @Override
  public void open(OpenContext openContext) {
    parser.open(RuntimeContextInitializationContextAdapters.deserializationAdapter(getRuntimeContext()));
  }

  @Override
  public void processElement(InputRecord record, Context context, Collector<RowData> out) {
    List<RowData> rows = new ArrayList<>(1);
    try {
      parser.parse(record, rows::add);
    } catch (InvalidRecordException e) {
      if (policy == ValidationPolicy.FAIL) {
        throw new SuppressRestartsException(new KtkValidationException("Cannot ingest line " + record.line() + " of "
            + inputName + ": " + e.getMessage(), e));
      }
      context.output(REJECTED, new DeadLetter(record.line(), record.text(), e.getMessage()));
      return;
    }
    rows.forEach(out::collect);
  }
}
