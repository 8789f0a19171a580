package ccp.platform.http;

import ccp.support.OnVertx;
import ccp.support.SharedInfra;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.NoStackTraceTimeoutException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.Router;
import io.vertx.pgclient.PgException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("ApiRouter: every failure is a JSON error")
class ApiRouterTest {

  @Test
  @DisplayName("a connection pool that times out, a statement cancelled by its timeout: a 503 with Retry-After, not a 500")
  void poolTimeoutIs503() {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults()));
      router.get("/lento").handler(ctx -> ctx.fail(new NoStackTraceTimeoutException("Timeout waiting for connection")));
      // vertx-sql-client 5.0's own failure of a wait for a pool connection, and a statement the server cancelled.
      router.get("/pool").handler(ctx -> ctx.fail(new VertxException("Timeout waiting for connection", true)));
      router.get("/cancelado").handler(ctx -> ctx.fail(new PgException("canceling statement due to statement timeout", "ERROR", "57014", null)));
      router.get("/roto").handler(ctx -> ctx.fail(new IllegalStateException("bug")));
      HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
      HttpClient client = vertx.createHttpClient();

      Respuesta lento = get(vertx, client, server, "/lento");
      assertThat(lento.status()).isEqualTo(503);
      assertThat(lento.retryAfter()).isEqualTo("1");
      assertThat(lento.body().getString("error")).isEqualTo("unavailable");

      for (String path : new String[] {"/pool", "/cancelado"}) {
        Respuesta respuesta = get(vertx, client, server, path);
        assertThat(respuesta.status()).as(path).isEqualTo(503);
        assertThat(respuesta.retryAfter()).as(path).isEqualTo("1");
      }
      assertThat(get(vertx, client, server, "/roto").status()).isEqualTo(500);
    } finally {
      vertx.close().await();
    }
  }

  @Test
  @DisplayName("a request not answered within http.request-timeout-ms is a 503 with Retry-After and a JSON body, not a hang")
  void aRequestPastItsBoundIs503() {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults().with(Map.of("http.request-timeout-ms", 300))));
      router.get("/colgado").handler(ctx -> { });
      HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
      HttpClient client = vertx.createHttpClient();

      long began = System.nanoTime();
      Respuesta colgado = get(vertx, client, server, "/colgado");
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      assertThat(colgado.status()).isEqualTo(503);
      assertThat(colgado.retryAfter()).isEqualTo("1");
      assertThat(colgado.body().getString("error")).isEqualTo("unavailable");
      assertThat(tookMs).as("answered within the bound, plus margin").isBetween(250L, 5_000L);
    } finally {
      vertx.close().await();
    }
  }

  @Test
  @DisplayName("a connection that sends nothing is closed by the server after http.idle-timeout-ms")
  void aSilentConnectionIsClosedAfterTheIdleTimeout() {
    Vertx vertx = Vertx.vertx();
    try {
      HttpServer server = ApiRouter.listen(vertx, HttpConfig.from(SharedInfra.defaults().with(Map.of("http.idle-timeout-ms", 500,
        "http.host", "127.0.0.1"))), ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults())), 0, 1).await();
      long began = System.nanoTime();
      NetSocket silent = vertx.createNetClient().connect(server.actualPort(), "127.0.0.1").await();
      Promise<Long> closed = Promise.promise();
      silent.closeHandler(v -> closed.tryComplete((System.nanoTime() - began) / 1_000_000));
      vertx.setTimer(10_000, id -> closed.tryFail("still open after 10 s"));
      assertThat(closed.future().await()).as("ms until the server closed it").isBetween(400L, 5_000L);
    } finally {
      vertx.close().await();
    }
  }

  @Test
  @DisplayName("at http.max-connections the oldest idle connection gives way to a new one; when all serve a request the new one is closed")
  void atTheCapTheOldestIdleConnectionGivesWay() {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults()));
      router.get("/hola").handler(ctx -> ctx.json(new JsonObject().put("hola", true)));
      AtomicInteger enCurso = new AtomicInteger();
      router.get("/lento").handler(ctx -> {
        enCurso.incrementAndGet();
        vertx.setTimer(3_000, id -> ctx.json(new JsonObject()));
      });
      HttpServer server = ApiRouter.listen(vertx, HttpConfig.from(SharedInfra.defaults().with(Map.of("http.max-connections", 2, "http.host", "127.0.0.1"))),
        router, 0, 1).await();
      NetClient tcp = vertx.createNetClient();
      NetSocket uno = tcp.connect(server.actualPort(), "127.0.0.1").await();
      NetSocket dos = tcp.connect(server.actualPort(), "127.0.0.1").await();
      assertThat(pedir(vertx, uno, "/hola")).as("the first connection").startsWith("HTTP/1.1 200");
      assertThat(pedir(vertx, dos, "/hola")).as("the second connection").startsWith("HTTP/1.1 200");
      Promise<Void> unoCerrada = Promise.promise();
      uno.closeHandler(unoCerrada::tryComplete);

      NetSocket tres = tcp.connect(server.actualPort(), "127.0.0.1").await();
      assertThat(pedir(vertx, tres, "/hola")).as("a third connection, beyond the cap").startsWith("HTTP/1.1 200");
      vertx.setTimer(5_000, id -> unoCerrada.tryFail("the oldest idle connection is still open"));
      unoCerrada.future().await();

      // Both places now serve a request each: nothing idle gives way.
      dos.write("GET /lento HTTP/1.1\r\nHost: localhost\r\n\r\n");
      tres.write("GET /lento HTTP/1.1\r\nHost: localhost\r\n\r\n");
      await("both requests in flight").atMost(Duration.ofSeconds(5)).until(enCurso::get, n -> n == 2);
      // Not served beyond the cap: closed at once, or (seen once on a loaded machine, cause not found yet) left
      // unanswered until the idle timeout closes it.
      assertThat(pedir(vertx, tcp.connect(server.actualPort(), "127.0.0.1").await(), "/hola")).as("a connection while all serve")
        .isIn("closed", "no answer");
    } finally {
      vertx.close().await();
    }
  }

  /** Sends a keep-alive request on {@code socket}: the answer's first bytes, "closed" if the server closed it. */
  private static String pedir(Vertx vertx, NetSocket socket, String path) {
    Promise<String> answer = Promise.promise();
    socket.handler(bytes -> answer.tryComplete(bytes.toString()));
    socket.closeHandler(v -> answer.tryComplete("closed"));
    vertx.setTimer(5_000, id -> answer.tryComplete("no answer"));
    socket.write("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    return answer.future().await();
  }

  private record Respuesta(int status, String retryAfter, JsonObject body) {}

  /**
   * Bounded: a request the server never answers fails the test within 15 s instead of hanging the suite. Made on a
   * Vert.x context ({@link OnVertx}): from the test's thread the client left a rare request unsent, its own timeouts
   * never firing.
   */
  private static Respuesta get(Vertx vertx, HttpClient client, HttpServer server, String path) {
    return OnVertx.call(vertx, () -> client.request(new RequestOptions().setMethod(HttpMethod.GET).setPort(server.actualPort())
        .setHost("127.0.0.1").setURI(path).setTimeout(15_000))
      .compose(request -> request.send())
      .compose(response -> response.body().map(body -> new Respuesta(response.statusCode(), response.getHeader("Retry-After"),
        new JsonObject(body)))))
      .timeout(20, TimeUnit.SECONDS)
      .await();
  }
}
