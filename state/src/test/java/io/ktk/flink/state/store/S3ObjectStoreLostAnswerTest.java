package io.ktk.flink.state.store;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.testing.S3Proxy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code putIfAbsent} when S3 executes a request but its answer is lost: the SDK retries, and the
 * retry meets the object the first attempt created. That 412 must not turn a win into a loss.
 */
class S3ObjectStoreLostAnswerTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  @Test
  void aWinWhoseAnswerWasLostIsStillAWin() throws IOException {
    try (AnswerDroppingProxy proxy = new AnswerDroppingProxy(S3.endpoint().getPort());
        ObjectStore store = open(proxy, "won")) {
      assertThat(store.putIfAbsent("_ktk_log/0.json", bytes("mine"))).isTrue();
      assertThat(proxy.dropped()).as("the first answer was dropped").isTrue();
      assertThat(store.get("_ktk_log/0.json")).asString(UTF_8).isEqualTo("mine");
    }
  }

  @Test
  void aLossWhoseAnswerWasLostIsStillALoss() throws IOException {
    try (ObjectStore direct = ObjectStores.open(S3.url("lost"), S3.options())) {
      direct.put("_ktk_log/0.json", bytes("theirs"));
    }
    try (AnswerDroppingProxy proxy = new AnswerDroppingProxy(S3.endpoint().getPort());
        ObjectStore store = open(proxy, "lost")) {
      assertThat(store.putIfAbsent("_ktk_log/0.json", bytes("mine"))).isFalse();
      assertThat(proxy.dropped()).as("the first answer was dropped").isTrue();
      assertThat(store.get("_ktk_log/0.json")).asString(UTF_8).isEqualTo("theirs");
    }
  }

  private static ObjectStore open(AnswerDroppingProxy proxy, String prefix) {
    Map<String, String> options = new HashMap<>(S3.options());
    options.put(StoreOptions.ENDPOINT, "http://127.0.0.1:" + proxy.port());
    return ObjectStores.open(S3.url(prefix), options);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  /**
   * Forwards TCP connections to s3proxy. On the first connection it passes the request and any
   * {@code 100 Continue} through, then closes the connection instead of passing the final answer:
   * the request has executed, and the client never learns how.
   */
  private static final class AnswerDroppingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int upstreamPort;
    private final AtomicBoolean first = new AtomicBoolean(true);
    private final AtomicBoolean dropped = new AtomicBoolean();
    private final Thread acceptor;

    AnswerDroppingProxy(int upstreamPort) throws IOException {
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      this.upstreamPort = upstreamPort;
      this.acceptor = new Thread(this::accept, "answer-dropping-proxy");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return server.getLocalPort();
    }

    boolean dropped() {
      return dropped.get();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket client = server.accept();
          Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
          boolean drop = first.getAndSet(false);
          start(() -> pipe(client, upstream));
          start(() -> {
            if (drop) {
              dropFinalAnswer(upstream, client);
            } else {
              pipe(upstream, client);
            }
          });
        } catch (IOException e) {
          return; // closed
        }
      }
    }

    private static void start(Runnable runnable) {
      Thread thread = new Thread(runnable, "answer-dropping-proxy-pipe");
      thread.setDaemon(true);
      thread.start();
    }

    private static void pipe(Socket from, Socket to) {
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        in.transferTo(out);
      } catch (IOException e) {
        // one side closed: the other goes too
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }

    private void dropFinalAnswer(Socket upstream, Socket client) {
      try (InputStream in = upstream.getInputStream(); OutputStream out = client.getOutputStream()) {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
          head.write(b);
          String text = head.toString(ISO_8859_1);
          if (text.endsWith("\r\n\r\n")) {
            if (!text.startsWith("HTTP/1.1 100")) {
              dropped.set(true);
              return;
            }
            out.write(head.toByteArray());
            out.flush();
            head.reset();
          }
        }
      } catch (IOException e) {
        // closed
      } finally {
        closeQuietly(client);
        closeQuietly(upstream);
      }
    }

    private static void closeQuietly(Socket socket) {
      try {
        socket.close();
      } catch (IOException e) {
        // nothing left to do
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
