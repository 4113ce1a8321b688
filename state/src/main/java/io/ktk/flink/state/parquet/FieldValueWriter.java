package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes typed Java values (the convention of {@link ParquetRowsWriter}) of one top-level column
 * into a {@link ColumnWriteStore} of that column alone, or into a record consumer of one's own:
 * for writers that drive each column of a file on its own and need parquet-column's record
 * shredding, or the conversion of typed values into Parquet values, for some of them. The store's
 * schema must be {@link #parquetSchema()}.
 */
public final class FieldValueWriter {
  private final Field field;
  private final MessageType schema;
  private final ValueWriters.RowWriter rowWriter;
  private final MessageColumnIO columnIO;

  public FieldValueWriter(Field field) {
    this.field = requireNonNull(field, "field is null");
    Schema single = new Schema(List.of(field));
    this.schema = ArrowParquetSchemas.toParquet(single);
    this.rowWriter = new ValueWriters.RowWriter(single);
    this.columnIO = new ColumnIOFactory(false).getColumnIO(schema);
  }

  /** The Parquet schema of the column alone. */
  public MessageType parquetSchema() {
    return schema;
  }

  /**
   * Writes one row's value (null for a null) as record-consumer calls ({@code startMessage} ...
   * {@code endMessage}), for a consumer of one's own. Throws {@link
   * io.ktk.flink.state.KtkValidationException} naming the column when the value does not fit its type.
   */
  public void write(RecordConsumer consumer, Object value) {
    rowWriter.write(requireNonNull(consumer, "consumer is null"), Collections.singletonList(value));
  }

  /** A writer of rows into {@code store}; each {@link Rows#write} ends one record of the store. */
  public Rows open(ColumnWriteStore store) {
    return new Rows(columnIO.getRecordWriter(requireNonNull(store, "store is null")));
  }

  /** The rows of one store. */
  public final class Rows {
    private final RecordConsumer consumer;

    private Rows(RecordConsumer consumer) {
      this.consumer = consumer;
    }

    /**
     * Writes one row's value (null for a null). Throws {@link io.ktk.flink.state.KtkValidationException}
     * naming the column when the value does not fit its type.
     */
    public void write(Object value) {
      rowWriter.write(consumer, Collections.singletonList(value));
    }

    /** Hands values the consumer still holds to the store; call before closing the store. */
    public void flush() {
      consumer.flush();
    }

    @Override
    public String toString() {
      return "FieldValueWriter.Rows{" + field.getName() + "}";
    }
  }
}
