package ccp.platform.http;

import ccp.support.SharedInfra;
import com.sun.management.UnixOperatingSystemMXBean;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@DisplayName("Idle connections: thousands that send nothing never keep a new client waiting")
class IdleConnectionsTest {

  private static final int SILENT = 9_000;
  private static final long WAIT_BOUND_MS = 1_000;

  @Test
  @DisplayName("9,000 connections that send nothing, beyond http.max-connections: a new client is answered within 1 s throughout, and the oldest silent ones give way")
  void silentConnectionsNeverLockANewClientOut() throws Exception {
    HttpConfig http = HttpConfig.from(SharedInfra.defaults().with(Map.of("http.host", "127.0.0.1")));
    // Each silent connection costs this JVM two descriptors while the server holds it (its end and ours), one after.
    long needed = SILENT + http.maxConnections() + 500L;
    UnixOperatingSystemMXBean os = (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long free = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount();
    assumeTrue(free >= needed, "needs " + needed + " free file descriptors (ulimit -n), has " + free);

    Vertx vertx = Vertx.vertx();
    List<SocketChannel> silent = new ArrayList<>(SILENT);
    try {
      Router router = ApiRouter.create(vertx, http);
      router.get("/hola").handler(ctx -> ctx.json(new JsonObject().put("hola", true)));
      HttpServer server = ApiRouter.listen(vertx, http, router, 0, 1).await();
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.actualPort());
      // The first requests load and compile the server's code: a cost of a cold process, not of the connections.
      for (int i = 0; i < 200; i++) newClientWaitMs(address);
      List<Long> waits = new ArrayList<>();
      while (silent.size() < SILENT) {
        silent.add(SocketChannel.open(address));
        if (silent.size() % 500 == 0) waits.add(newClientWaitMs(address));
      }
      for (int i = 0; i < 5; i++) waits.add(newClientWaitMs(address));
      // The server holds no more than its cap: the oldest silent connections gave way to the newer ones.
      int beyondCap = SILENT - http.maxConnections();
      await("the oldest silent connections closed by the server").atMost(Duration.ofSeconds(20))
        .until(() -> closedByServer(silent.subList(0, beyondCap)), closed -> closed == beyondCap);
      System.out.printf("%d silent connections (cap %d): a new client waited %s ms (every 500, then 5 more)%n", SILENT,
        http.maxConnections(), waits);
      assertThat(waits).as("ms a new client waited for its answer, every 500 silent connections").allMatch(ms -> ms <= WAIT_BOUND_MS);
    } finally {
      for (SocketChannel channel : silent) closeQuietly(channel);
      vertx.close().await();
    }
  }

  /** A new client's request on a new connection: ms until its answer's status line, or the bound exceeded when refused. */
  private static long newClientWaitMs(InetSocketAddress address) {
    long began = System.nanoTime();
    try (Socket socket = new Socket()) {
      socket.connect(address, 5_000);
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write("GET /hola HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      byte[] status = socket.getInputStream().readNBytes(12);
      if (!new String(status, StandardCharsets.US_ASCII).equals("HTTP/1.1 200")) return Long.MAX_VALUE;
    } catch (IOException refused) {
      return Long.MAX_VALUE;
    }
    return (System.nanoTime() - began) / 1_000_000;
  }

  /** How many of {@code channels} the server has closed (a read sees the end of the stream). */
  private static int closedByServer(List<SocketChannel> channels) throws IOException {
    int closed = 0;
    ByteBuffer buffer = ByteBuffer.allocate(64);
    for (SocketChannel channel : channels) {
      if (channel.isBlocking()) channel.configureBlocking(false);
      buffer.clear();
      if (channel.read(buffer) < 0) closed++;
    }
    return closed;
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Closing a test's socket: nothing to do.
    }
  }
}
