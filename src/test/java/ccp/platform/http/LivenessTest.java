package ccp.platform.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Liveness: the process is live while its event loops turn")
class LivenessTest {

  private static final long DEADLINE_MS = 500;
  private static final long BLOCK_MS = 4_000;

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  @DisplayName("a blocked event loop makes /health/live answer 503 naming it; once it turns again the process is live")
  void aBlockedEventLoopFailsLiveness() throws Exception {
    // The checker would only log the blocked loop; this test blocks one on purpose.
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(4).setMaxEventLoopExecuteTime(BLOCK_MS * 2)
      .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS));
    try {
      ManagementServer management = new ManagementServer(new Health(vertx, DEADLINE_MS),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "127.0.0.1", 0);
      vertx.deployVerticle(management).await(30, TimeUnit.SECONDS);
      String live = "http://127.0.0.1:" + management.actualPort() + "/health/live";
      await("live while every loop turns").atMost(Duration.ofSeconds(10)).until(() -> status(live, 5_000) == 200);

      // The management server answers on one of the loops: a loop blocked there gets no answer at all (which a probe
      // counts as a failure too); the first other loop blocked must get a 503 that names it.
      HttpResponse<String> failed = null;
      for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) {
        CountDownLatch blocking = new CountDownLatch(1);
        loop.execute(() -> {
          blocking.countDown();
          sleep(BLOCK_MS);
        });
        blocking.await();
        failed = firstNot200(live, BLOCK_MS - 1_000);
        await("the loop runs again").atMost(Duration.ofSeconds(10)).until(() -> status(live, 1_000) == 200);
        if (failed != null) break;
      }
      assertThat(failed).as("a 503 from /health/live while a loop was blocked").isNotNull();
      assertThat(failed.statusCode()).isEqualTo(503);
      JsonObject check = new JsonObject(failed.body()).getJsonArray("checks").getJsonObject(0);
      assertThat(check.getString("id")).isEqualTo("event-loops");
      assertThat(check.getJsonObject("data").getJsonObject("blocked_ms").fieldNames()).hasSize(1);
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  /** The first answer of /health/live that is not a 200 within {@code withinMs}; null when none came. */
  private HttpResponse<String> firstNot200(String url, long withinMs) throws Exception {
    long until = System.nanoTime() + withinMs * 1_000_000;
    while (System.nanoTime() < until) {
      try {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(1_000)).build(),
          HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) return response;
      } catch (HttpTimeoutException noAnswer) {
        // This loop serves the management server: try the next.
        return null;
      }
    }
    return null;
  }

  private int status(String url, long timeoutMs) throws Exception {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(timeoutMs)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (HttpTimeoutException noAnswer) {
      return -1;
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
