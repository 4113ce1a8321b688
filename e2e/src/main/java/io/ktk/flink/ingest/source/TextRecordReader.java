package io.ktk.flink.ingest.source;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads the records of a UTF-8 text file from a byte offset, keeping the offset and line number
 * after the last record returned, so that reading can resume there.
 *
 * <p>A record ends at a line feed ({@code \n}; a {@code \r} before it is dropped) or at the end
 * of the file. With {@code quotedLineBreaks} (CSV), a line feed between double quotes belongs to
 * the record: quotes are counted, and an escaped quote ({@code ""}) toggles twice. Blank lines are
 * skipped, so they are no records. A record that is not valid UTF-8 comes with the reason ({@link
 * InputRecord#encodingError()}), so that it is refused rather than stored with U+FFFD.
 */
public final class TextRecordReader implements Closeable {
  private static final int BUFFER = 1 << 16;

  private final FileChannel channel;
  private final boolean quotedLineBreaks;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
  private byte[] record = new byte[256];
  private long offset;
  private long line;

  /**
   * @param offset where the next record starts
   * @param line the line number of that record (1 for the first line of the file)
   */
  public TextRecordReader(Path file, long offset, long line, boolean quotedLineBreaks) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.quotedLineBreaks = quotedLineBreaks;
    this.offset = offset;
    this.line = line;
    channel.position(offset);
    buffer.flip();
  }

  /** The offset just after the last record returned (where the next one starts). */
  public long offset() {
    return offset;
  }

  /** The line number where the next record starts. */
  public long line() {
    return line;
  }

  /** The next record, or null at the end of the file. */
  public InputRecord next() throws IOException {
    while (true) {
      long startLine = line;
      int length = 0;
      boolean quoted = false;
      boolean any = false;
      while (true) {
        if (!buffer.hasRemaining()) {
          buffer.clear();
          int read = channel.read(buffer);
          buffer.flip();
          if (read <= 0) {
            break;
          }
        }
        byte b = buffer.get();
        offset++;
        any = true;
        if (b == '\n') {
          line++;
          if (!quoted) {
            break;
          }
        } else if (b == '"' && quotedLineBreaks) {
          quoted = !quoted;
        }
        if (length == record.length) {
          record = Arrays.copyOf(record, record.length * 2);
        }
        record[length++] = b;
      }
      if (!any) {
        return null;
      }
      if (length > 0 && record[length - 1] == '\r') {
        length--;
      }
      String text = new String(record, 0, length, UTF_8);
      if (!text.isBlank()) {
        // The decoder puts U+FFFD for each malformed sequence; only then look closer.
        return new InputRecord(startLine, text, text.indexOf('\uFFFD') < 0 ? null : encodingError(length));
      }
    }
  }

  /**
   * Why the record's first {@code length} bytes are not UTF-8, or null when they are (and the
   * U+FFFD in the text was in the input).
   */
  private String encodingError(int length) {
    CharsetDecoder decoder = UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(record, 0, length);
    CharBuffer out = CharBuffer.allocate(length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      return null;
    }
    int at = in.position();
    StringBuilder bytes = new StringBuilder();
    for (int i = at; i < at + result.length(); i++) {
      bytes.append(bytes.length() == 0 ? "" : " ").append(String.format("0x%02X", record[i] & 0xFF));
    }
    return "the record is not valid UTF-8: " + bytes + " at byte " + (at + 1) + " of the record is malformed "
        + "(the input must be UTF-8)";
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
