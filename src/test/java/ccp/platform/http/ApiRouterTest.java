package ccp.platform.http;

import ccp.support.SharedInfra;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.impl.NoStackTraceTimeoutException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("ApiRouter: every failure is a JSON error")
class ApiRouterTest {

  @Test
  @DisplayName("a connection pool that times out is a 503 with Retry-After, not a 500")
  void poolTimeoutIs503() {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults()));
      router.get("/lento").handler(ctx -> ctx.fail(new NoStackTraceTimeoutException("Timeout waiting for connection")));
      router.get("/roto").handler(ctx -> ctx.fail(new IllegalStateException("bug")));
      HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
      HttpClient client = vertx.createHttpClient();

      Respuesta lento = get(client, server, "/lento");
      assertThat(lento.status()).isEqualTo(503);
      assertThat(lento.retryAfter()).isEqualTo("1");
      assertThat(lento.body().getString("error")).isEqualTo("unavailable");

      assertThat(get(client, server, "/roto").status()).isEqualTo(500);
    } finally {
      vertx.close().await();
    }
  }

  @Test
  @DisplayName("connections beyond http.max-connections are closed at once; a freed place is taken again")
  void connectionsBeyondTheCapAreClosed() {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults()));
      router.get("/hola").handler(ctx -> ctx.json(new JsonObject().put("hola", true)));
      HttpServer server = ApiRouter.listen(vertx, HttpConfig.from(SharedInfra.defaults().with(Map.of("http.max-connections", 2, "http.host", "127.0.0.1"))),
        router, 0, 1).await();
      NetClient tcp = vertx.createNetClient();
      NetSocket uno = tcp.connect(server.actualPort(), "127.0.0.1").await();
      NetSocket dos = tcp.connect(server.actualPort(), "127.0.0.1").await();
      assertThat(pedir(vertx, uno)).as("the first connection").startsWith("HTTP/1.1 200");
      assertThat(pedir(vertx, dos)).as("the second connection").startsWith("HTTP/1.1 200");
      assertThat(pedir(vertx, tcp.connect(server.actualPort(), "127.0.0.1").await())).as("a third connection").isEqualTo("closed");

      uno.close().await();
      HttpClient client = vertx.createHttpClient();
      await("a place freed by a closed connection").atMost(Duration.ofSeconds(5)).ignoreExceptionsInstanceOf(RuntimeException.class)
        .until(() -> get(client, server, "/hola").status(), status -> status == 200);
      dos.close().await();
    } finally {
      vertx.close().await();
    }
  }

  /** Sends a keep-alive request on {@code socket}: the answer's first bytes, "closed" if the server closed it. */
  private static String pedir(Vertx vertx, NetSocket socket) {
    Promise<String> answer = Promise.promise();
    socket.handler(bytes -> answer.tryComplete(bytes.toString()));
    socket.closeHandler(v -> answer.tryComplete("closed"));
    vertx.setTimer(5_000, id -> answer.tryComplete("no answer"));
    socket.write("GET /hola HTTP/1.1\r\nHost: localhost\r\n\r\n");
    return answer.future().await();
  }

  private record Respuesta(int status, String retryAfter, JsonObject body) {}

  private static Respuesta get(HttpClient client, HttpServer server, String path) {
    return client.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", path)
      .compose(request -> request.send())
      .compose(response -> response.body().map(body -> new Respuesta(response.statusCode(), response.getHeader("Retry-After"),
        new JsonObject(body))))
      .await();
  }
}
