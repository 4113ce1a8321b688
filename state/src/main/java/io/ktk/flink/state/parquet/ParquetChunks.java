package io.ktk.flink.state.parquet;

import io.ktk.flink.state.CorruptDatasetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
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
 * Encrypted files are not supported. A page whose header carries a CRC-32 (the format's optional
 * {@code crc} field: over the page's bytes as stored, after the header) is checked before it is
 * decompressed when the caller asks for it, which readers do by default; a mismatch is a {@link
 * PageChecksumException} naming file, column, row group and page. Pages without a CRC (pyarrow
 * writes none unless asked to) are read unchecked.
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

  /**
   * Reads the pages of the requested columns of row group {@code rowGroup} (described by {@code
   * block}); with {@code verifyChecksums}, every page that carries a CRC is checked against its
   * bytes first ({@link PageChecksumException}).
   */
  static PageReadStore readRowGroup(String name, SeekableInputStream in, int rowGroup, BlockMetaData block,
      MessageType requested, CompressionCodecFactory codecs, boolean verifyChecksums) throws IOException {
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
            "Cannot read Parquet file " + name + ": row group " + rowGroup + " has no column chunk "
                + path.toDotString());
      }
      readers.put(path, readChunk(name, in, rowGroup, chunk, column, codecs, verifyChecksums));
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

  /**
   * Checks the CRC of every page of every column chunk of row group {@code rowGroup} that carries
   * one, without decompressing or decoding anything; throws {@link PageChecksumException} at the
   * first page that fails.
   */
  static PageChecksumCount verifyRowGroup(String name, SeekableInputStream in, int rowGroup,
      BlockMetaData block) throws IOException {
    long[] counts = new long[2];
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      walkPages(name, rowGroup, chunk, chunkBytes(name, in, chunk), true,
          (header, start, size) -> counts[header.isSetCrc() ? 0 : 1]++);
    }
    return new PageChecksumCount(counts[0], counts[1]);
  }

  private static byte[] chunkBytes(String name, SeekableInputStream in, ColumnChunkMetaData chunk)
      throws IOException {
    if (chunk.getTotalSize() > Integer.MAX_VALUE - 16) {
      throw new CorruptDatasetException("Cannot read " + where(name, chunk) + ": it has " + chunk.getTotalSize()
          + " bytes");
    }
    in.seek(chunk.getStartingPos());
    if (in instanceof RangeInputStream range) {
      return range.readBytes((int) chunk.getTotalSize());
    }
    byte[] bytes = new byte[(int) chunk.getTotalSize()];
    in.readFully(bytes);
    return bytes;
  }

  private static PageReader readChunk(String name, SeekableInputStream in, int rowGroup, ColumnChunkMetaData chunk,
      ColumnDescriptor column, CompressionCodecFactory codecs, boolean verifyChecksums) throws IOException {
    byte[] bytes = chunkBytes(name, in, chunk);
    CompressionCodecFactory.BytesInputDecompressor decompressor = codecs.getDecompressor(chunk.getCodec());
    Statistics<?> noStatistics = Statistics.getBuilderForReading(column.getPrimitiveType()).build();
    DictionaryPage[] dictionary = {null};
    List<DataPage> pages = new ArrayList<>();
    try {
      walkPages(name, rowGroup, chunk, bytes, verifyChecksums, (header, start, compressedSize) -> {
        int uncompressedSize = header.getUncompressed_page_size();
        // pages are slices of the chunk's bytes, not copies
        BytesInput page = BytesInput.from(bytes, start, compressedSize);
        switch (header.getType()) {
          case DICTIONARY_PAGE:
            DictionaryPageHeader dictionaryHeader = header.getDictionary_page_header();
            dictionary[0] =
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
            break;
          default:
            // Index pages and unknown page types carry nothing a reader of values needs.
            break;
        }
      });
    } finally {
      decompressor.release();
    }
    return new ChunkPages(dictionary[0], pages, chunk.getValueCount());
  }

  /** What is done with each page of a chunk: its header and where its (compressed) bytes lie in the chunk. */
  @FunctionalInterface
  private interface PageVisitor {
    void visit(PageHeader header, int start, int compressedSize) throws IOException;
  }

  /**
   * Reads the page headers of a column chunk's {@code bytes} until its values are all seen, checks
   * each page's CRC when asked to and the page has one, and hands each page to {@code visitor}.
   * Anything that does not parse is a {@link CorruptDatasetException} naming the chunk.
   */
  private static void walkPages(String name, int rowGroup, ColumnChunkMetaData chunk, byte[] bytes,
      boolean verifyChecksums, PageVisitor visitor) {
    ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
    CRC32 crc = verifyChecksums ? new CRC32() : null;
    long values = 0;
    int page = 0;
    try {
      while (values < chunk.getValueCount()) {
        PageHeader header = Util.readPageHeader(stream);
        int compressedSize = header.getCompressed_page_size();
        int start = bytes.length - stream.available();
        if (compressedSize < 0 || compressedSize > stream.available()) {
          throw new CorruptDatasetException("Cannot read " + where(name, chunk) + ": a page of " + compressedSize
              + " bytes ends after " + stream.available());
        }
        stream.skip(compressedSize);
        if (crc != null && header.isSetCrc()) {
          crc.reset();
          crc.update(bytes, start, compressedSize);
          if ((int) crc.getValue() != header.getCrc()) {
            throw new PageChecksumException(name, chunk.getPath().toDotString(), rowGroup, page,
                pageKind(header), chunk.getStartingPos() + start, header.getCrc(), (int) crc.getValue());
          }
        }
        visitor.visit(header, start, compressedSize);
        if (header.isSetData_page_header()) {
          values += header.getData_page_header().getNum_values();
        } else if (header.isSetData_page_header_v2()) {
          values += header.getData_page_header_v2().getNum_values();
        }
        page++;
        if (stream.available() == 0 && values < chunk.getValueCount()) {
          throw new CorruptDatasetException(
              "Cannot read " + where(name, chunk) + ": it ends after " + values + " of " + chunk.getValueCount()
                  + " values");
        }
      }
    } catch (CorruptDatasetException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptDatasetException("Cannot read " + where(name, chunk) + ": " + e.getMessage(), e);
    }
  }

  private static String pageKind(PageHeader header) {
    return switch (header.getType()) {
      case DICTIONARY_PAGE -> "dictionary page";
      case DATA_PAGE, DATA_PAGE_V2 -> "data page";
      default -> header.getType().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    };
  }

  private static String where(String name, ColumnChunkMetaData chunk) {
    return "column chunk " + chunk.getPath().toDotString() + " at offset " + chunk.getStartingPos() + " of " + name;
  }

  /** The pages of a column chunk, all read; consumed by {@link #readPage} or looked at through {@link #pages}. */
  static final class ChunkPages implements PageReader {
    private final DictionaryPage dictionary;
    private final List<DataPage> pages;
    private final long valueCount;
    /** The first page not read yet by {@link #readPage}. */
    private int next;

    ChunkPages(DictionaryPage dictionary, List<DataPage> pages, long valueCount) {
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
      return next < pages.size() ? pages.get(next++) : null;
    }

    /** The data pages not read yet, in order (a view, not a copy: decoders look at it per chunk). */
    List<DataPage> pages() {
      return Collections.unmodifiableList(pages.subList(next, pages.size()));
    }
  }
}
