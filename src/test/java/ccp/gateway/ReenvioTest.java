package ccp.gateway;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The gateway's forwarding: it lets go of an idle connection before the role does, and asks once more on a new one when the role resets it")
class ReenvioTest {

  private Rol rol;

  @BeforeEach
  void start() throws IOException {
    rol = new Rol();
  }

  @AfterEach
  void stop() throws IOException {
    rol.close();
  }

  @Test
  @DisplayName("a PUT whose connection the role resets is asked again and answered 200; a POST without an Idempotency-Key is not (503)")
  void reintentaLoRepetible() throws Exception {
    rol.resetsFirst.set(1);
    try (RunningApp app = RunningApp.start(gatewayTo(Map.of()), Set.of(Role.GATEWAY))) {
      TestTokens tokens = TestTokens.devIssuer(app.app().vertx());
      String area = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");

      Http.Response put = Http.put(app.gatewayUrl() + "/v1/dispositivos/vendedor-1", area, "{\"huella\":\"casa-0001\"}");
      assertThat(put.status()).as(put.body()).isEqualTo(200);
      assertThat(rol.requests.get()).as("the reset request, then the one answered").isEqualTo(2);

      rol.resetsFirst.set(1);
      Http.Response post = Http.post(app.gatewayUrl() + "/v1/revocaciones/vendedor-1/levantamiento", area, "{\"motivo\":\"x\"}");
      assertThat(post.status()).as("a write that could take effect twice is not asked again").isEqualTo(503);
      assertThat(post.json().getString("error")).isEqualTo("unavailable");
      assertThat(rol.requests.get()).isEqualTo(3);
    }
  }

  @Test
  @DisplayName("a pooled connection idle for half the role's idle timeout is closed by the gateway, so the next request opens a new one")
  void sueltaLaConexionAntesQueElRol() throws Exception {
    // The roles close a connection idle for 8 s; the gateway keeps one for 4 s, and its pool's sweep and a busy
    // machine may add a second or two: closed within 7 s is closed before the role would.
    try (RunningApp app = RunningApp.start(gatewayTo(Map.of("http.idle-timeout-ms", 8_000)), Set.of(Role.GATEWAY))) {
      TestTokens tokens = TestTokens.devIssuer(app.app().vertx());
      String area = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
      String url = app.gatewayUrl() + "/v1/dispositivos/vendedor-1";

      assertThat(Http.put(url, area, "{\"huella\":\"casa-0001\"}").status()).isEqualTo(200);
      assertThat(rol.connections.get()).isEqualTo(1);
      await("the gateway closes its idle connection").atMost(Duration.ofSeconds(7)).until(() -> rol.closedByPeer.get() == 1);
      assertThat(Http.put(url, area, "{\"huella\":\"casa-0001\"}").status()).isEqualTo(200);
      assertThat(rol.connections.get()).as("a new connection, not the one the role would close").isEqualTo(2);
    }
  }

  private Settings gatewayTo(Map<String, Object> overrides) {
    Settings settings = SharedInfra.settings(overrides);
    return settings.with(Map.of("seguridad.url", "http://127.0.0.1:" + rol.port()));
  }

  /**
   * A role at the far end of a raw socket: HTTP/1.1 keep-alive, each request answered 200 {@code {}}, except that it
   * resets the connection under the next {@code resetsFirst} requests (read whole, then RST), as a role does when it
   * closes an idle connection just as the gateway sends on it.
   */
  private static final class Rol implements AutoCloseable {
    final AtomicInteger resetsFirst = new AtomicInteger();
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger closedByPeer = new AtomicInteger();
    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final Thread acceptor = new Thread(this::accept, "rol-raw");

    Rol() throws IOException {
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return server.getLocalPort();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          connections.incrementAndGet();
          Thread serving = new Thread(() -> serve(socket), "rol-conexion");
          serving.setDaemon(true);
          serving.start();
        } catch (IOException closed) {
          return;
        }
      }
    }

    private void serve(Socket socket) {
      try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
        while (true) {
          if (!readRequest(in)) {
            closedByPeer.incrementAndGet();
            return;
          }
          requests.incrementAndGet();
          if (resetsFirst.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            socket.setSoLinger(true, 0);
            return;
          }
          out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
      } catch (SocketException gone) {
        closedByPeer.incrementAndGet();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    /** One request, head and Content-Length body; false when the gateway closed the connection first. */
    private static boolean readRequest(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int b;
      while ((b = in.read()) >= 0) {
        head.write(b);
        if (head.size() >= 4 && head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) break;
      }
      if (b < 0) return false;
      int length = 0;
      for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) length = Integer.parseInt(line.substring(15).trim());
      }
      return in.readNBytes(length).length == length;
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
