package io.ktk.flink.state.parquet;

import io.ktk.flink.state.CorruptDatasetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a Parquet footer and the pages of column chunks with parquet-java's format classes
 * (Thrift structures, page and encoding types) but without its {@code ParquetFileReader}: that
 * reader takes a {@code ParquetReadOptions}, whose builder always creates parquet-java's own
 * codec factory and a record filter from {@code ParquetInputFormat}, both of which load Hadoop
 * classes. What this class does instead is what the format specifies: the footer is the Thrift
 * {@code FileMetaData} before the last 8 bytes ({@code <length: int32 LE> "PAR1"}); a column chunk
 * is a run of pages, each a Thrift {@code PageHeader} and its (compressed) bytes.
 *
 * <p>Only the column chunks of the requested columns are read, each with one ranged read.
 * Encrypted files are not supported; page checksums are not verified.
 */
final class ParquetChunks {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final ParquetMetadataConverter CONVERTER = new ParquetMetadataConverter();

  private ParquetChunks() {}

  /**
   * A file's footer: as parquet-java converts it, and the Thrift structure it was converted from
   * (which keeps what the conversion loses: which statistics fields were set, the column orders).
   */
  record Footer(ParquetMetadata metadata, FileMetaData raw) {}

  /** Reads the footer; throws {@link CorruptDatasetException} when the file is not Parquet. */
  static Footer readFooter(String name, SeekableInputStream in, long length) throws IOException {
    if (length < 12) {
      throw new CorruptDatasetException(
          "Cannot read Parquet file " + name + ": it has " + length + " bytes, too few for a Parquet file");
    }
    byte[] tail = new byte[8];
    in.seek(length - 8);
    in.readFully(tail);
    if (!Arrays.equals(tail, 4, 8, MAGIC, 0, 4)) {
      throw new CorruptDatasetException(
          "Cannot read Parquet file " + name
              + ": it does not end with the magic bytes PAR1 (not Parquet, or truncated)");
    }
    long footerLength = Integer.toUnsignedLong(ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
    long footerStart = length - 8 - footerLength;
    if (footerStart < 4) {
      throw new CorruptDatasetException(
          "Cannot read Parquet file " + name + ": its footer length " + footerLength + " exceeds the file of "
              + length + " bytes");
    }
    byte[] footer = new byte[(int) footerLength];
    in.seek(footerStart);
    in.readFully(footer);
    try {
      FileMetaData raw = Util.readFileMetaData(new ByteArrayInputStream(footer));
      return new Footer(CONVERTER.fromParquetMetadata(raw), raw);
    } catch (IOException | RuntimeException e) {
      throw new CorruptDatasetException("Cannot read the footer of Parquet file " + name + ": " + e.getMessage(), e);
    }
  }

  /** Reads the pages of the requested columns of one row group. */
  static PageReadStore readRowGroup(
      String name, SeekableInputStream in, BlockMetaData block, MessageType requested, CompressionCodecFactory codecs)
      throws IOException {
    Map<ColumnPath, ColumnChunkMetaData> chunks = new HashMap<>();
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      chunks.put(chunk.getPath(), chunk);
    }
    Map<ColumnPath, PageReader> readers = new HashMap<>();
    for (ColumnDescriptor column : requested.getColumns()) {
      ColumnPath path = ColumnPath.get(column.getPath());
      ColumnChunkMetaData chunk = chunks.get(path);
      if (chunk == null) {
        throw new CorruptDatasetException(
            "Cannot read Parquet file " + name + ": row group at " + block.getStartingPos() + " has no column chunk "
                + path.toDotString());
      }
      readers.put(path, readChunk(name, in, chunk, column, codecs));
    }
    long rowCount = block.getRowCount();
    return new PageReadStore() {
      @Override
      public PageReader getPageReader(ColumnDescriptor descriptor) {
        return readers.get(ColumnPath.get(descriptor.getPath()));
      }

      @Override
      public long getRowCount() {
        return rowCount;
      }
    };
  }

  private static PageReader readChunk(
      String name, SeekableInputStream in, ColumnChunkMetaData chunk, ColumnDescriptor column,
      CompressionCodecFactory codecs)
      throws IOException {
    String where =
        "column chunk " + chunk.getPath().toDotString() + " at offset " + chunk.getStartingPos() + " of " + name;
    if (chunk.getTotalSize() > Integer.MAX_VALUE - 16) {
      throw new CorruptDatasetException("Cannot read " + where + ": it has " + chunk.getTotalSize() + " bytes");
    }
    in.seek(chunk.getStartingPos());
    byte[] bytes;
    if (in instanceof RangeInputStream range) {
      bytes = range.readBytes((int) chunk.getTotalSize());
    } else {
      bytes = new byte[(int) chunk.getTotalSize()];
      in.readFully(bytes);
    }
    CompressionCodecFactory.BytesInputDecompressor decompressor = codecs.getDecompressor(chunk.getCodec());
    Statistics<?> noStatistics = Statistics.getBuilderForReading(column.getPrimitiveType()).build();
    ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
    DictionaryPage dictionary = null;
    Deque<DataPage> pages = new ArrayDeque<>();
    long values = 0;
    try {
      while (values < chunk.getValueCount()) {
        PageHeader header = Util.readPageHeader(stream);
        int compressedSize = header.getCompressed_page_size();
        int uncompressedSize = header.getUncompressed_page_size();
        // pages are slices of the chunk's bytes, not copies
        int start = bytes.length - stream.available();
        if (compressedSize < 0 || compressedSize > stream.available()) {
          throw new CorruptDatasetException("Cannot read " + where + ": a page of " + compressedSize
              + " bytes ends after " + stream.available());
        }
        stream.skip(compressedSize);
        BytesInput page = BytesInput.from(bytes, start, compressedSize);
        switch (header.getType()) {
          case DICTIONARY_PAGE:
            DictionaryPageHeader dictionaryHeader = header.getDictionary_page_header();
            dictionary =
                new DictionaryPage(
                    decompressor.decompress(page, uncompressedSize),
                    dictionaryHeader.getNum_values(),
                    CONVERTER.getEncoding(dictionaryHeader.getEncoding()));
            break;
          case DATA_PAGE:
            DataPageHeader v1 = header.getData_page_header();
            pages.add(
                new DataPageV1(
                    decompressor.decompress(page, uncompressedSize),
                    v1.getNum_values(),
                    uncompressedSize,
                    noStatistics,
                    CONVERTER.getEncoding(v1.getRepetition_level_encoding()),
                    CONVERTER.getEncoding(v1.getDefinition_level_encoding()),
                    CONVERTER.getEncoding(v1.getEncoding())));
            values += v1.getNum_values();
            break;
          case DATA_PAGE_V2:
            DataPageHeaderV2 v2 = header.getData_page_header_v2();
            int levels = v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
            BytesInput data = BytesInput.from(bytes, start + levels, compressedSize - levels);
            if (v2.isIs_compressed()) {
              data = decompressor.decompress(data, uncompressedSize - levels);
            }
            pages.add(
                DataPageV2.uncompressed(
                    v2.getNum_rows(),
                    v2.getNum_nulls(),
                    v2.getNum_values(),
                    BytesInput.from(bytes, start, v2.getRepetition_levels_byte_length()),
                    BytesInput.from(bytes, start + v2.getRepetition_levels_byte_length(),
                        v2.getDefinition_levels_byte_length()),
                    CONVERTER.getEncoding(v2.getEncoding()),
                    data,
                    noStatistics));
            values += v2.getNum_values();
            break;
          default:
            // Index pages and unknown page types carry nothing a reader of values needs.
            break;
        }
        if (stream.available() == 0 && values < chunk.getValueCount()) {
          throw new CorruptDatasetException(
              "Cannot read " + where + ": it ends after " + values + " of " + chunk.getValueCount() + " values");
        }
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptDatasetException) {
        throw (CorruptDatasetException) e;
      }
      throw new CorruptDatasetException("Cannot read " + where + ": " + e.getMessage(), e);
    } finally {
      decompressor.release();
    }
    return new ChunkPages(dictionary, pages, chunk.getValueCount());
  }

  /** The pages of a column chunk, all read; consumed by {@link #readPage} or looked at through {@link #pages}. */
  static final class ChunkPages implements PageReader {
    private final DictionaryPage dictionary;
    private final Deque<DataPage> pages;
    private final long valueCount;

    ChunkPages(DictionaryPage dictionary, Deque<DataPage> pages, long valueCount) {
      this.dictionary = dictionary;
      this.pages = pages;
      this.valueCount = valueCount;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
      return dictionary;
    }

    @Override
    public long getTotalValueCount() {
      return valueCount;
    }

    @Override
    public DataPage readPage() {
      return pages.poll();
    }

    /** The data pages not read yet, in order. */
    List<DataPage> pages() {
      return List.copyOf(pages);
    }
  }
}
