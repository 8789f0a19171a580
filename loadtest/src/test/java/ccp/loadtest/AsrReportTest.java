package ccp.loadtest;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The load test's ASR report names each target missed: a p99 over its target, records that never came")
class AsrReportTest {

  private static final String NONE = """
    asr1_seconds_bucket{le="0.1"} 0
    asr1_seconds_bucket{le="0.5"} 0
    asr1_seconds_bucket{le="+Inf"} 0
    asr1_seconds_count 0
    asr1_seconds_max 0.0
    """;

  private final AtomicReference<String> metrics = new AtomicReference<>(NONE);
  private HttpServer server;

  @BeforeEach
  void serve() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/metrics", exchange -> {
      byte[] body = metrics.get().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private AsrReport report(long expected) {
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
    return new AsrReport(List.of(url), List.of(new AsrReport.Asr("ASR-1", "asr1_seconds", 2_000, 200, () -> expected)), 1_000);
  }

  private static String recorded(int under100ms, int under500ms, double max) {
    int all = under100ms + under500ms;
    return """
      asr1_seconds_bucket{le="0.1"} %d
      asr1_seconds_bucket{le="0.5"} %d
      asr1_seconds_bucket{le="+Inf"} %d
      asr1_seconds_count %d
      asr1_seconds_max %s
      """.formatted(under100ms, all, all, all, max);
  }

  @Test
  @DisplayName("100 alerts, 99 within 100 ms: nothing missed")
  void withinTarget() {
    AsrReport report = report(100);
    report.before();
    metrics.set(recorded(99, 1, 0.3));

    assertThat(report.after()).isEmpty();
  }

  @Test
  @DisplayName("100 alerts, 10 of them between 100 and 500 ms: the p99 over 200 ms is named")
  void p99OverTarget() {
    AsrReport report = report(100);
    report.before();
    metrics.set(recorded(90, 10, 0.45));

    assertThat(report.after()).singleElement().asString().startsWith("ASR-1 p99 ").endsWith("ms over its 200 ms target");
  }

  @Test
  @DisplayName("100 alerts expected, 60 recorded within the wait: the missing records are named, though their p99 is fine")
  void recordsMissing() {
    AsrReport report = report(100);
    report.before();
    metrics.set(recorded(60, 0, 0.05));

    assertThat(report.after()).containsExactly("ASR-1: 60 records of 100 expected within 1 s of the end");
  }

  @Test
  @DisplayName("read again when the warm-up ends, the records before it are not the measured load's")
  void fromTheWarmUpsEnd() throws InterruptedException {
    AsrReport report = report(100);
    report.before();
    metrics.set(recorded(0, 50, 0.45));
    CountDownLatch measured = new CountDownLatch(1);
    report.desde(0, measured::countDown);
    assertThat(measured.await(10, TimeUnit.SECONDS)).isTrue();
    metrics.set(recorded(100, 50, 0.45));

    assertThat(report.after()).isEmpty();
  }
}
