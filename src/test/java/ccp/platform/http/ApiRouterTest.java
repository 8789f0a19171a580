package ccp.platform.http;

import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.impl.NoStackTraceTimeoutException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("ApiRouter: every failure is a JSON error")
class ApiRouterTest {

  @Test
  @DisplayName("a connection pool that times out is a 503 with Retry-After, not a 500")
  void poolTimeoutIs503() {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = ApiRouter.create(vertx, SharedInfra.defaults());
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

  private record Respuesta(int status, String retryAfter, JsonObject body) {}

  private static Respuesta get(HttpClient client, HttpServer server, String path) {
    return client.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", path)
      .compose(request -> request.send())
      .compose(response -> response.body().map(body -> new Respuesta(response.statusCode(), response.getHeader("Retry-After"),
        new JsonObject(body))))
      .await();
  }
}
