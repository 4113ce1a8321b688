package io.ktk.flink.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.canal.CanalJsonDeserializationSchema;
import org.apache.flink.formats.json.debezium.DebeziumJsonDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * Parses change envelopes with Flink's own deserialization schemas of the {@code debezium-json}
 * and {@code canal-json} formats, so a CDC topic dumped to a file (one message per line) replays
 * into a dataset with a primary key ({@code docs/cdc.md}). Debezium's {@code op} {@code c} and
 * {@code r} become inserts, {@code u} an update ({@code -U} of {@code before}, {@code +U} of {@code
 * after}), {@code d} a delete of {@code before}; a message with Kafka Connect's schema envelope
 * ({@code {"schema": ..., "payload": ...}}) is recognised by its first line. The {@code -U} rows are
 * not passed on: the sink upserts by key and would drop them. As in Flink, an update or delete
 * without {@code before} (a Postgres table without {@code REPLICA IDENTITY FULL}) is invalid.
 */
final class ChangelogParser implements Serializable {
  private static final long serialVersionUID = 1L;

  private final RowType rowType;
  private final IngestFormat format;
  private transient DeserializationSchema<RowData> schema;
  private transient DeserializationSchema.InitializationContext context;

  ChangelogParser(RowType rowType, IngestFormat format) {
    this.rowType = requireNonNull(rowType, "rowType is null");
    this.format = requireNonNull(format, "format is null");
    if (!format.isChangelog()) {
      throw new IllegalArgumentException(format + " is not a changelog format");
    }
  }

  /** Opens the parser in a task (Flink's schemas need their context). */
  void open(DeserializationSchema.InitializationContext context) {
    this.context = context;
  }

  /**
   * Passes on the changes of one message (none for an empty one: a Kafka tombstone).
   *
   * @throws InvalidRecordException with Flink's reason
   */
  void parse(String text, Consumer<RowData> out) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    try {
      if (schema == null) {
        schema = create(text);
      }
      schema.deserialize(bytes, new Collector<>() {
        @Override
        public void collect(RowData row) {
          if (row.getRowKind() != RowKind.UPDATE_BEFORE) {
            out.accept(row);
          }
        }

        @Override
        public void close() {}
      });
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new InvalidRecordException("it is not a valid " + format.cliName() + " message: "
          + (cause.getMessage() != null ? cause.getMessage() : cause.toString()));
    }
  }

  private DeserializationSchema<RowData> create(String first) throws Exception {
    DataType type = TypeConversions.fromLogicalToDataType(rowType);
    InternalTypeInfo<RowData> produced = InternalTypeInfo.of(rowType);
    DeserializationSchema<RowData> created = switch (format) {
      case DEBEZIUM_JSON -> new DebeziumJsonDeserializationSchema(type, List.of(), produced, hasSchemaEnvelope(first),
          false, TimestampFormat.ISO_8601);
      case CANAL_JSON -> CanalJsonDeserializationSchema.builder(type, List.of(), produced)
          .setIgnoreParseErrors(false)
          .setTimestampFormat(TimestampFormat.ISO_8601)
          .build();
      default -> throw new IllegalStateException(format.name());
    };
    if (context != null) {
      created.open(context);
    }
    return created;
  }

  /** Whether a message is wrapped in Kafka Connect's {@code {"schema": ..., "payload": ...}}. */
  private static boolean hasSchemaEnvelope(String message) {
    try {
      JsonNode node = StrictJson.read(message, "the line");
      return node.isObject() && node.has("schema") && node.has("payload");
    } catch (InvalidRecordException e) {
      return false; // Flink's schema says what is wrong with it
    }
  }
}
