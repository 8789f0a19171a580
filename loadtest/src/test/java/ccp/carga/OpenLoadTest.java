package ccp.carga;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class OpenLoadTest {

  /** A server that refuses every third request, as admission control does: the refusals are counted and timed apart. */
  @Test
  void refusalsApartFromTheAcceptedAnswers() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      AtomicLong n = new AtomicLong();
      HttpServer server = vertx.createHttpServer()
        .requestHandler(req -> req.response().setStatusCode(n.incrementAndGet() % 3 == 0 ? 503 : 201).end())
        .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
      RequestOptions post = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
        .setPort(server.actualPort()).setURI("/v1/sesiones");
      OpenLoad load = new OpenLoad(vertx, vertx.createHttpClient(), 300, 1,
        () -> new OpenLoad.Shot(post, Buffer.buffer("{}"), 201, null));
      Promise<OpenLoad.Result> done = Promise.promise();
      vertx.runOnContext(v -> load.run().onComplete(done));
      OpenLoad.Result r = done.future().await(30, TimeUnit.SECONDS);

      assertThat(r.sent()).isBetween(250L, 310L);
      assertThat(r.ok() + r.refusedMicros().length).isEqualTo(r.sent());
      assertThat((long) r.refusedMicros().length).isEqualTo(r.failures().get("HTTP 503")).isPositive();
      assertThat(r.latenciesMicros()).hasSize((int) r.ok());
      assertThat(r.timeouts()).isZero();
      assertThat(r.refused()).startsWith(r.refusedMicros().length + ", p50 ");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * An overload phase then the normal rate, against a server that refuses while the first phase lasts and answers slowly
   * for its first second after: each phase is read apart, and the run is normal again two seconds after the overload.
   */
  @Test
  void phasesReadApartAndTheReturnToNormal() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      AtomicLong began = new AtomicLong();
      HttpServer server = vertx.createHttpServer()
        .requestHandler(req -> {
          double at = (System.nanoTime() - began.get()) / 1e9;
          if (at < 2) req.response().setStatusCode(503).end();
          else if (at < 3) vertx.setTimer(600, x -> req.response().setStatusCode(201).end());
          else req.response().setStatusCode(201).end();
        })
        .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
      RequestOptions post = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
        .setPort(server.actualPort()).setURI("/v1/pedidos");
      OpenLoad load = new OpenLoad(vertx, vertx.createHttpClient(), java.util.List.of(new OpenLoad.Phase(200, 2),
        new OpenLoad.Phase(100, 3)), () -> new OpenLoad.Shot(post, Buffer.buffer("{}"), 201, null));
      Promise<OpenLoad.Result> done = Promise.promise();
      vertx.runOnContext(v -> {
        began.set(System.nanoTime());
        load.run().onComplete(done);
      });
      OpenLoad.Result r = done.future().await(30, TimeUnit.SECONDS);

      OpenLoad.Window overload = r.window(0, 2);
      OpenLoad.Window after = r.window(2, Integer.MAX_VALUE);
      assertThat(overload.sent()).as("200/s for 2 s").isBetween(340L, 410L);
      assertThat(after.sent()).as("100/s for 3 s").isBetween(250L, 310L);
      assertThat(overload.sent() + after.sent()).isEqualTo(r.sent());
      assertThat(overload.ok()).as("refused while the server refuses (give or take the clock's edge)").isLessThan(20);
      assertThat(after.refusedMicros()).hasSizeLessThan(20);
      assertThat(after.acceptedMicros(0.99)).as("the slow second").isGreaterThan(500_000);
      assertThat(r.normalAfter(2, 500_000)).as("normal from the second after the slow one").isBetween(1, 2);
      assertThat(r.normalAfter(2, 1_000_000)).as("with a looser bound, normal as soon as nothing is refused").isBetween(0, 1);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** Loads run side by side read as one: counts added, answers kept with their start seconds. */
  @Test
  void resultsOfLoadsSideBySideMerge() {
    OpenLoad.Result a = new OpenLoad.Result(3, 2, java.util.Map.of("x", 1L), java.util.Map.of("HTTP 503", 1L), 2.0, 3,
      new int[] {0, 0, 1}, new long[] {1_000, 2_000, 3_000}, new byte[] {0, 1, 0});
    OpenLoad.Result b = new OpenLoad.Result(2, 1, java.util.Map.of("x", 1L), java.util.Map.of("timeout", 1L), 2.5, 2,
      new int[] {1, 1}, new long[] {4_000, 15_000_000}, new byte[] {0, 2});
    OpenLoad.Result r = OpenLoad.Result.merge(java.util.List.of(a, b));

    assertThat(r.sent()).isEqualTo(5);
    assertThat(r.ok()).isEqualTo(3);
    assertThat(r.okByTag()).containsEntry("x", 2L);
    assertThat(r.failures()).containsEntry("HTTP 503", 1L).containsEntry("timeout", 1L);
    assertThat(r.seconds()).isEqualTo(2.5);
    assertThat(r.timeouts()).isEqualTo(1);
    assertThat(r.window(1, 2).sent()).isEqualTo(3);
    assertThat(r.window(1, 2).latenciesMicros()).containsExactlyInAnyOrder(3_000L, 4_000L);
    assertThat(r.refusedMicros()).containsExactly(2_000L);
  }
}
