package ccp.carga;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("The load runs' set-up registers every device, asking a 503 again after its Retry-After, and gives up after a bound")
class DispositivosTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("each device refused twice with 503 (Retry-After: 1) is registered on the third ask, the retries counted, after the delay named")
  void honoursRetryAfter() throws Exception {
    Map<String, AtomicInteger> asks = new ConcurrentHashMap<>();
    URI base = serve(path -> asks.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet() <= 2 ? 503 : 200);
    Dispositivos dispositivos = new Dispositivos(vertx, WebClient.create(vertx));

    long began = System.nanoTime();
    dispositivos.registrar(base, "Bearer x", 10, 4).await(30, TimeUnit.SECONDS);

    assertThat(asks).hasSize(10).allSatisfy((path, n) -> assertThat(n.get()).isEqualTo(3));
    assertThat(dispositivos.retries()).isEqualTo(20);
    // Three batches, each waiting two Retry-After seconds.
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isGreaterThanOrEqualTo(6_000);
  }

  @Test
  @DisplayName("a device refused at every ask fails the set-up after five asks, naming the answer")
  void givesUp() throws Exception {
    AtomicInteger asks = new AtomicInteger();
    URI base = serve(path -> {
      asks.incrementAndGet();
      return 503;
    });
    Dispositivos dispositivos = new Dispositivos(vertx, WebClient.create(vertx));

    assertThatThrownBy(() -> dispositivos.registrar(base, "Bearer x", 1, 1).await(30, TimeUnit.SECONDS))
      .hasMessageContaining("registering the device of vendedor-1 answered 503");
    assertThat(asks.get()).isEqualTo(Dispositivos.ATTEMPTS);
  }

  @Test
  @DisplayName("Retry-After is read as delay-seconds, at least 1 s and at most 5 s; anything else waits 1 s")
  void retryAfterBounded() {
    assertThat(Dispositivos.retryAfterSeconds("2")).isEqualTo(2);
    assertThat(Dispositivos.retryAfterSeconds("0")).isEqualTo(1);
    assertThat(Dispositivos.retryAfterSeconds("3600")).isEqualTo(Dispositivos.MAX_SECONDS);
    assertThat(Dispositivos.retryAfterSeconds(null)).isEqualTo(1);
    assertThat(Dispositivos.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT")).isEqualTo(1);
  }

  private URI serve(java.util.function.ToIntFunction<String> status) throws Exception {
    HttpServer server = vertx.createHttpServer()
      .requestHandler(req -> req.body().onSuccess(body -> {
        int code = status.applyAsInt(req.path());
        if (code == 503) req.response().putHeader("Retry-After", "1");
        req.response().setStatusCode(code).end("{}");
      }))
      .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    return URI.create("http://127.0.0.1:" + server.actualPort());
  }
}
