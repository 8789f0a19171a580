package ccp.carga.suelo;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The floor warms up as the system's Gestor does before it says it is ready ({@code gestor.warm-up-ms}, 64 requests in
 * flight through its own route), so that neither is measured with a cold JIT.
 */
final class CalentamientoSuelo {

  private static final int IN_FLIGHT = 64;

  private final HttpClient http;
  private final RequestOptions request;
  private final Buffer body;
  private final long until;
  private long created;

  private CalentamientoSuelo(Vertx vertx, int port, String path, Buffer body, long millis) {
    this.http = vertx.createHttpClient(new HttpClientOptions(), new PoolOptions().setHttp1MaxSize(IN_FLIGHT));
    String claims = Base64.getUrlEncoder().withoutPadding()
      .encodeToString(new JsonObject().put("sub", "vendedor-1").encode().getBytes(StandardCharsets.UTF_8));
    this.request = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port).setURI(path)
      .putHeader("authorization", "Bearer x." + claims + ".x").putHeader("content-type", "application/json");
    this.body = body;
    this.until = System.nanoTime() + millis * 1_000_000;
  }

  /** Sends {@code body} to {@code path} for {@code millis}; completes when the last answer is in, with the 201s. */
  static Future<Long> run(Vertx vertx, int port, String path, Buffer body, long millis) {
    CalentamientoSuelo warm = new CalentamientoSuelo(vertx, port, path, body, millis);
    Promise<Long> done = Promise.promise();
    int[] left = {IN_FLIGHT};
    for (int i = 0; i < IN_FLIGHT; i++) {
      warm.next().onComplete(x -> {
        if (--left[0] == 0) warm.http.close().onComplete(y -> done.complete(warm.created));
      });
    }
    return done.future();
  }

  private Future<?> next() {
    if (System.nanoTime() >= until) return Future.succeededFuture();
    return http.request(request).compose(req -> req.send(body)).compose(response -> response.body().map(x -> response.statusCode()))
      .transform(ar -> {
        if (ar.succeeded() && ar.result() == 201) created++;
        return next();
      });
  }
}
