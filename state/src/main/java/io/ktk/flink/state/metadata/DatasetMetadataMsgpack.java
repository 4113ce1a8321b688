package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import io.ktk.flink.state.CorruptDatasetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.IntegerValue;
import org.msgpack.value.Value;

/**
 * {@code <uuid>.by-dataset-metadata.msgpack.zstd}: plateau's alternative metadata format, the same
 * document as {@link DatasetMetadataJson} packed with msgpack and compressed as one zstd frame that
 * records its content size (plateau's {@code ZstdCompressor(write_content_size=True)}, level 3).
 *
 * <p>Reading converts the msgpack tree to the JSON tree and applies the same checks. Map keys that are
 * not strings (plateau may embed an index with integer values) become strings as Python's {@code str()}
 * prints them; binary values become JSON binary nodes. Extension types are refused.
 */
public final class DatasetMetadataMsgpack {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final byte[] ZSTD_MAGIC = {(byte) 0x28, (byte) 0xB5, (byte) 0x2F, (byte) 0xFD};
  private static final int ZSTD_LEVEL = 3;

  private DatasetMetadataMsgpack() {}

  public static byte[] write(DatasetMetadata dataset) {
    requireNonNull(dataset, "dataset is null");
    try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
      pack(packer, DatasetMetadataTree.toTree(dataset));
      return Zstd.compress(packer.toByteArray(), ZSTD_LEVEL);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write dataset metadata of " + dataset.uuid(), e);
    }
  }

  /**
   * Reads a zstd-compressed msgpack metadata document.
   *
   * @param location where the bytes come from (store URL and key), for error messages
   * @throws CorruptDatasetException when the bytes are not valid metadata
   */
  public static DatasetMetadata read(byte[] compressed, String location) {
    requireNonNull(compressed, "compressed is null");
    requireNonNull(location, "location is null");
    if (compressed.length < 4 || !Arrays.equals(compressed, 0, 4, ZSTD_MAGIC, 0, 4)) {
      throw DatasetMetadataTree.corrupt(location, "not zstd-compressed (no zstd frame header)");
    }
    byte[] packed;
    try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(compressed))) {
      packed = in.readAllBytes();
    } catch (IOException e) {
      throw DatasetMetadataTree.corrupt(location, "invalid zstd data: " + e.getMessage(), e);
    }
    Value value;
    try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(packed)) {
      if (!unpacker.hasNext()) {
        throw DatasetMetadataTree.corrupt(location, "the document is empty");
      }
      value = unpacker.unpackValue();
      if (unpacker.hasNext()) {
        throw DatasetMetadataTree.corrupt(location, "extra data after the msgpack document at byte "
            + unpacker.getTotalReadBytes());
      }
    } catch (IOException | MessagePackException e) {
      throw DatasetMetadataTree.corrupt(location, "invalid msgpack: " + e.getMessage(), e);
    }
    return DatasetMetadataTree.fromTree(toJson(value, location), location);
  }

  private static JsonNode toJson(Value value, String location) {
    switch (value.getValueType()) {
      case NIL:
        return NODES.nullNode();
      case BOOLEAN:
        return NODES.booleanNode(value.asBooleanValue().getBoolean());
      case INTEGER:
        IntegerValue integer = value.asIntegerValue();
        return integer.isInLongRange() ? NODES.numberNode(integer.toLong()) : NODES.numberNode(integer.toBigInteger());
      case FLOAT:
        return NODES.numberNode(value.asFloatValue().toDouble());
      case STRING:
        return NODES.textNode(string(value, location));
      case BINARY:
        return NODES.binaryNode(value.asBinaryValue().asByteArray());
      case ARRAY:
        ArrayNode array = NODES.arrayNode();
        for (Value element : value.asArrayValue()) {
          array.add(toJson(element, location));
        }
        return array;
      case MAP:
        ObjectNode object = NODES.objectNode();
        for (Map.Entry<Value, Value> e : value.asMapValue().entrySet()) {
          object.set(key(e.getKey(), location), toJson(e.getValue(), location));
        }
        return object;
      default:
        throw DatasetMetadataTree.corrupt(location, "msgpack " + value.getValueType() + " values are not supported");
    }
  }

  /** Map keys as Python's str() prints them, which is what plateau compares embedded index values by. */
  private static String key(Value key, String location) {
    switch (key.getValueType()) {
      case STRING:
        return string(key, location);
      case INTEGER:
        return key.asIntegerValue().toBigInteger().toString();
      case FLOAT:
        return PythonFloats.repr(key.asFloatValue().toDouble());
      case BOOLEAN:
        return key.asBooleanValue().getBoolean() ? "True" : "False";
      case NIL:
        return "None";
      case BINARY:
        byte[] bytes = key.asBinaryValue().asByteArray();
        if (!PercentEncoding.isValidUtf8(bytes)) {
          throw DatasetMetadataTree.corrupt(location, "a binary msgpack map key is not UTF-8");
        }
        return new String(bytes, StandardCharsets.UTF_8);
      default:
        throw DatasetMetadataTree.corrupt(location, "msgpack " + key.getValueType() + " map keys are not supported");
    }
  }

  private static String string(Value value, String location) {
    try {
      return value.asStringValue().asString();
    } catch (MessagePackException e) {
      throw DatasetMetadataTree.corrupt(location, "a msgpack string is not UTF-8", e);
    }
  }

  private static void pack(MessageBufferPacker packer, JsonNode node) throws IOException {
    switch (node.getNodeType()) {
      case NULL:
      case MISSING:
        packer.packNil();
        break;
      case BOOLEAN:
        packer.packBoolean(node.booleanValue());
        break;
      case NUMBER:
        if (node.isIntegralNumber()) {
          if (node.canConvertToLong()) {
            packer.packLong(node.longValue());
          } else {
            packer.packBigInteger(node.bigIntegerValue());
          }
        } else {
          packer.packDouble(node.doubleValue());
        }
        break;
      case STRING:
        packer.packString(node.textValue());
        break;
      case BINARY:
        byte[] bytes = node.binaryValue();
        packer.packBinaryHeader(bytes.length).writePayload(bytes);
        break;
      case ARRAY:
        packer.packArrayHeader(node.size());
        for (JsonNode element : node) {
          pack(packer, element);
        }
        break;
      case OBJECT:
        packer.packMapHeader(node.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          packer.packString(e.getKey());
          pack(packer, e.getValue());
        }
        break;
      default:
        throw new IllegalArgumentException("Cannot pack a JSON " + node.getNodeType() + " node");
    }
  }
}
