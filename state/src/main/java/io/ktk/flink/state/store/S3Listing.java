package io.ktk.flink.state.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The objects of an {@link S3ObjectStore} under a prefix, page by page with ListObjectsV2 (S3
 * returns keys in ascending UTF-8 byte order): the first page is read when the listing is made, a
 * later one when the iterator reaches it; a page that cannot be read makes the iterator throw an
 * {@link UncheckedIOException}.
 */
final class S3Listing implements Iterator<ObjectInfo> {
  private final S3ObjectStore store;
  private final String prefix;
  private final int rootLength;
  private final String s3Prefix;
  private final String s3StartAfter;
  private final int pageSize;
  private Iterator<S3Object> page;
  private String continuationToken;
  private boolean lastPage;
  private ObjectInfo next;

  S3Listing(S3ObjectStore store, String prefix, String startAfter, int pageSize) throws IOException {
    this.store = store;
    this.prefix = prefix;
    this.rootLength = store.root().length();
    this.s3Prefix = store.root() + prefix;
    this.s3StartAfter = startAfter == null ? null : store.root() + startAfter;
    this.pageSize = pageSize;
    fetch();
  }

  @Override
  public boolean hasNext() {
    while (next == null) {
      if (page.hasNext()) {
        S3Object object = page.next();
        // Folder markers ("dir/") that consoles create are not objects of a store.
        if (!object.key().endsWith("/")) {
          next = new ObjectInfo(object.key().substring(rootLength), object.size(), object.lastModified());
        }
      } else if (lastPage) {
        return false;
      } else {
        try {
          fetch();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return true;
  }

  @Override
  public ObjectInfo next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ObjectInfo result = next;
    next = null;
    return result;
  }

  private void fetch() throws IOException {
    ListObjectsV2Response response;
    try {
      response = store.client().listObjectsV2(r -> r.bucket(store.bucket()).prefix(s3Prefix).maxKeys(pageSize)
          .startAfter(s3StartAfter).continuationToken(continuationToken));
    } catch (SdkException e) {
      throw store.failure("list keys under", "'" + prefix + "'", e);
    }
    page = response.contents().iterator();
    continuationToken = response.nextContinuationToken();
    lastPage = !Boolean.TRUE.equals(response.isTruncated()) || continuationToken == null;
  }
}
