package io.ktk.flink.ingest;

import io.ktk.flink.ingest.source.InputRecord;
import io.ktk.flink.ingest.source.TextFileSplit;
import io.ktk.flink.ingest.source.TextRecordReader;
import io.ktk.flink.state.KtkValidationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The input file of an ingest: where its records start (after a UTF-8 byte order mark and, for
 * CSV, the header row), how many there are, and stdin spooled into a file so that it can be read
 * again from a checkpointed offset.
 *
 * @param start the file and the position of its first record
 * @param header the CSV header row, or null for JSON lines
 */
public record InputFile(TextFileSplit start, String header) {
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  /**
   * Opens {@code file} as input of {@code format}.
   *
   * @throws KtkValidationException when a CSV file has no header row, or one that is not UTF-8
   */
  public static InputFile open(Path file, IngestFormat format, String inputName) throws IOException {
    long offset = 0;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] first = in.readNBytes(3);
      if (java.util.Arrays.equals(first, BOM)) {
        offset = 3;
      }
    }
    String path = file.toAbsolutePath().toString();
    if (format != IngestFormat.CSV) {
      return new InputFile(new TextFileSplit(path, offset, 1), null);
    }
    try (TextRecordReader reader = new TextRecordReader(file, offset, 1, true)) {
      InputRecord header = reader.next();
      if (header == null) {
        throw new KtkValidationException("Cannot ingest " + inputName + ": the CSV input has no header row (the first "
            + "line names the columns)");
      }
      if (header.encodingError() != null) {
        throw new KtkValidationException("Cannot ingest " + inputName + ": the CSV header row: "
            + header.encodingError());
      }
      return new InputFile(new TextFileSplit(path, reader.offset(), reader.line()), header.text());
    }
  }

  /** The number of records from the start position on. */
  public long countRecords(IngestFormat format) throws IOException {
    long count = 0;
    try (TextRecordReader reader = new TextRecordReader(Path.of(start.path()), start.offset(), start.line(),
        format.quotedLineBreaks())) {
      while (reader.next() != null) {
        count++;
      }
    }
    return count;
  }

  /**
   * The line the {@code records}-th record from the start position ends on (a CSV record may span
   * lines), or -1 when there are fewer records.
   */
  public long lastLineOf(IngestFormat format, long records) throws IOException {
    try (TextRecordReader reader = new TextRecordReader(Path.of(start.path()), start.offset(), start.line(),
        format.quotedLineBreaks())) {
      InputRecord record = null;
      for (long i = 0; i < records; i++) {
        record = reader.next();
        if (record == null) {
          return -1;
        }
      }
      return record == null ? -1 : record.line() + record.text().chars().filter(c -> c == '\n').count();
    }
  }

  /** Copies {@code in} to {@code file} (through a temporary file, so that {@code file} is whole); returns the bytes. */
  public static long spool(InputStream in, Path file) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    long bytes;
    try (OutputStream out = Files.newOutputStream(temp)) {
      bytes = in.transferTo(out);
    }
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return bytes;
  }
}
