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
}
