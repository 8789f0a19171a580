package ccp.platform.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The management port speaks HTTP/1.1 only: a client asking for an h2c upgrade gets its whole scrape as HTTP/1.1")
class ManagementHttp11Test {

  @Test
  @DisplayName("GET /metrics with Upgrade: h2c → HTTP/1.1 200 with every meter, not 101 Switching Protocols")
  void anH2cUpgradeIsDeclined() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      // A scrape of the size the suite's processes answer (about 28 kB), the size seen cut short over h2c.
      for (int i = 0; i < 400; i++) Counter.builder("prueba_contador_" + i).tag("n", String.valueOf(i)).register(registry);
      ManagementServer management = new ManagementServer(new Health(vertx, 500), registry, "127.0.0.1", 0);
      vertx.deployVerticle(management).await(30, TimeUnit.SECONDS);

      // What java.net.http.HttpClient sends by default on an http:// URL.
      String request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
        + "Upgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n\r\n";
      String answer;
      try (Socket socket = new Socket("127.0.0.1", management.actualPort())) {
        socket.setSoTimeout(2_000);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        answer = readAll(socket.getInputStream());
      }
      assertThat(answer).startsWith("HTTP/1.1 200");
      assertThat(answer).contains("prueba_contador_0_total", "prueba_contador_399_total");
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  /** What the server sends until it closes the connection or falls silent for the socket's timeout. */
  private static String readAll(InputStream in) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] chunk = new byte[8192];
    try {
      for (int n; (n = in.read(chunk)) > 0; ) out.write(chunk, 0, n);
    } catch (SocketTimeoutException silent) {
      // A kept-alive connection: the answer is what came.
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
