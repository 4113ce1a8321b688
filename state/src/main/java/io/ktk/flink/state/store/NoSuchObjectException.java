package io.ktk.flink.state.store;

import java.io.FileNotFoundException;

/** A read named a key that does not exist in the store. */
public class NoSuchObjectException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;

  private final String key;

  public NoSuchObjectException(String storeUrl, String key) {
    super("Cannot read " + key + " in " + storeUrl + ": no such object");
    this.key = key;
  }

  public String key() {
    return key;
  }
}
