package io.ktk.flink.sink.committer;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committable.FileBatchSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.checkpoint.CheckpointIDCounter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's pre-commit operator, at parallelism 1: gathers the batches of all writer subtasks
 * and emits them as one batch per dataset and checkpoint, so the committer makes one commit per
 * dataset and checkpoint. All batches of one checkpoint carry the same writer id (the smallest of
 * the writers'), which is the id of the checkpoint's transaction when the sink writes a cube.
 *
 * <p>A batch belongs to the first checkpoint whose barrier this operator passes after receiving
 * it, whatever checkpoint id its writer gave it: that is the checkpoint whose committer state
 * holds it. It emits everything it holds before every barrier, so no batch is part of its state
 * (with aligned and unaligned checkpoints alike: what it holds never outlives a barrier); its only
 * state is the id of the last checkpoint it passed.
 *
 * <p>At end of input it emits what is left for the checkpoint after the last one it passed
 * (restored ones included, so the id is never one that a checkpoint before a restore committed):
 * the final checkpoint in STREAMING mode (whose id is at least that), or the end-of-input commit
 * of BATCH mode and of jobs without checkpoints. A writer subtask that reaches end of input early
 * sends its last batch ahead of the other subtasks' barriers, so it joins the next checkpoint
 * passed here, and nothing waits for a checkpoint that never comes.
 */
public final class FileBatchAggregator extends AbstractStreamOperator<CommittableMessage<FileBatch>>
    implements OneInputStreamOperator<CommittableMessage<FileBatch>, CommittableMessage<FileBatch>>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(FileBatchAggregator.class);

  /**
   * The sink's pre-commit topology: this aggregator at parallelism 1, and from it everything to
   * committer subtask 0, so that one committer commits the checkpoints one after the other, in
   * order, all batches of a checkpoint in one call.
   */
  public static DataStream<CommittableMessage<FileBatch>> behind(DataStream<CommittableMessage<FileBatch>> committables,
      String name, boolean sinkHasUid) {
    SingleOutputStreamOperator<CommittableMessage<FileBatch>> aggregated = committables
        .global()
        .transform("Kartothek aggregator: " + name, CommittableMessageTypeInfo.of(FileBatchSerializer::new),
            new FileBatchAggregator())
        .setParallelism(1)
        .setMaxParallelism(1);
    if (sinkHasUid) {
      // Flink prefixes it with the sink's uid (and refuses it when the sink has none): the
      // aggregator's state then maps to it whatever else the job graph changes.
      aggregated.uid("aggregator");
    }
    return aggregated.global();
  }

  /**
   * The id of the last checkpoint passed, kept as state although nothing else is: Flink tells an
   * operator the checkpoint it restores only when its task has state, and without it a restored
   * job that ends before its first checkpoint would label its final batch with the id of a
   * checkpoint committed before the failure, which the committer then acknowledges as a replay.
   */
  private static final ListStateDescriptor<Long> LAST_CHECKPOINT =
      new ListStateDescriptor<>("last-checkpoint-id", LongSerializer.INSTANCE);

  private final List<FileBatch> pending = new ArrayList<>();
  private long lastCheckpointId = CheckpointIDCounter.INITIAL_CHECKPOINT_ID - 1;
  private transient ListState<Long> lastCheckpointState;

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    lastCheckpointState = context.getOperatorStateStore().getUnionListState(LAST_CHECKPOINT);
    context.getRestoredCheckpointId().ifPresent(id -> lastCheckpointId = Math.max(lastCheckpointId, id));
    for (Long restored : lastCheckpointState.get()) {
      lastCheckpointId = Math.max(lastCheckpointId, restored);
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    lastCheckpointState.update(List.of(lastCheckpointId));
  }

  @Override
  public void processElement(StreamRecord<CommittableMessage<FileBatch>> element) {
    if (element.getValue() instanceof CommittableWithLineage<FileBatch> committable) {
      pending.add(committable.getCommittable());
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    lastCheckpointId = Math.max(lastCheckpointId, checkpointId);
    emit(checkpointId);
  }

  @Override
  public void endInput() {
    emit(lastCheckpointId + 1);
  }

  private void emit(long checkpointId) {
    if (pending.isEmpty()) {
      return;
    }
    List<FileBatch> batches = combine(pending, checkpointId);
    for (FileBatch batch : batches) {
      LOG.info("Dataset '{}': batches become the batch of checkpoint {}: {} files, {} rows", batch.dataset(),
          checkpointId, batch.files().size(), batch.rows());
    }
    pending.clear();
    output.collect(new StreamRecord<>(new CommittableSummary<>(0, 1, checkpointId, batches.size(), 0)));
    for (FileBatch batch : batches) {
      output.collect(new StreamRecord<>(new CommittableWithLineage<>(batch, checkpointId, 0)));
    }
  }

  /**
   * One batch per dataset, in order of dataset uuid, all with the smallest writer id of {@code
   * batches}: any choice that depends only on the batches works, because a replay carries the
   * combined batches themselves.
   */
  static List<FileBatch> combine(List<FileBatch> batches, long checkpointId) {
    Map<String, List<FileBatch>> byDataset = new TreeMap<>();
    String writerId = null;
    for (FileBatch batch : batches) {
      byDataset.computeIfAbsent(batch.dataset(), d -> new ArrayList<>()).add(batch);
      if (writerId == null || batch.writerId().compareTo(writerId) < 0) {
        writerId = batch.writerId();
      }
    }
    List<FileBatch> combined = new ArrayList<>();
    for (List<FileBatch> datasetBatches : byDataset.values()) {
      combined.add(FileBatch.combine(datasetBatches, checkpointId).withWriterId(writerId));
    }
    return combined;
  }
}
