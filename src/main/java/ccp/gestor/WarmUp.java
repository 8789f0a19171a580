package ccp.gestor;

import ccp.platform.http.Tokens;
import ccp.platform.role.RoleContext;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The Gestor's warm-up: before its process says it is ready, it opens sessions through its own session route
 * for {@code gestor.warm-up-ms}, so that the JIT has compiled what an App session runs — HTTP, admission, the token,
 * the Lista de revocación, the session's insert, the producer, and in the same process the broker and the Verificador —
 * before the first App session arrives: a cold JVM serves far fewer sessions while C2 compiles.
 * <p>
 * The sessions are the warm-up actor's ({@link Tokens#WARM_UP_ACTOR}, read-only), with tokens of a key that lives in
 * this process's memory until the warm-up ends, from one device: the Verificador registers it at its first use, so no
 * session raises an alert. Their rows are deleted when the warm-up ends. A warm-up that fails costs only its time: the
 * process then starts cold, as it did before.
 */
final class WarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);
  /** Sessions in flight: enough to keep both cores busy, few enough that each is answered within the admission target. */
  private static final int IN_FLIGHT = 64;
  /** A new token every so many sessions: the verification path is warmed too, as a crowd of new vendedores makes it run. */
  private static final int SESSIONS_PER_TOKEN = 8;
  static final String HUELLA = "ccp-warm-up-device";

  private final RoleContext role;
  private final Tokens.WarmUpKey key;
  private final HttpClient client;
  private final long deadline;
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private final Buffer body = new JsonObject().put("huella", HUELLA).toBuffer();
  private String token;
  private int sent;

  private WarmUp(RoleContext role, String host, int port, long durationMs) {
    this.role = role;
    this.key = role.tokens().openWarmUp();
    this.client = role.vertx().createHttpClient(new HttpClientOptions().setKeepAlive(true).setDefaultHost(host)
      .setDefaultPort(port).setConnectTimeout(role.http().clientTimeoutMs()), new PoolOptions().setHttp1MaxSize(IN_FLIGHT));
    this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(durationMs);
  }

  /** Warms the session route of the Gestor listening on {@code port}; completes (never fails) when the warm-up is over. */
  static Future<Void> run(RoleContext role, int port, long durationMs) {
    if (durationMs <= 0) return Future.succeededFuture();
    String host = role.http().host();
    String target = host.isBlank() || host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    Vertx vertx = role.vertx();
    Promise<Void> done = Promise.promise();
    // On a context of its own: the lanes' state is touched on that one event loop only.
    vertx.getOrCreateContext().runOnContext(ignored -> new WarmUp(role, target, port, durationMs).start(done));
    return done.future();
  }

  private void start(Promise<Void> done) {
    long began = System.nanoTime();
    Future.join(java.util.stream.IntStream.range(0, IN_FLIGHT).mapToObj(lane -> lane()).toList())
      .eventually(() -> {
        key.close();
        return client.close();
      })
      .compose(ignored -> new Actores(role.sql()).borrarSesiones(Tokens.WARM_UP_ACTOR))
      .onComplete(ar -> {
        LOG.info("Warm-up: {} sessions in {} ms ({}){}", sent, (System.nanoTime() - began) / 1_000_000, outcomes,
          ar.succeeded() ? "" : "; its sessions were not deleted: " + ar.cause());
        done.complete();
      });
  }

  /** One session after another until the deadline. */
  private Future<Void> lane() {
    if (System.nanoTime() >= deadline) return Future.succeededFuture();
    if (sent++ % SESSIONS_PER_TOKEN == 0) token = key.token();
    return client.request(new RequestOptions().setMethod(HttpMethod.POST).setURI("/v1/sesiones")
        .putHeader("Authorization", "Bearer " + token).putHeader("Content-Type", "application/json")
        .setIdleTimeout(role.http().clientTimeoutMs()))
      .compose(request -> request.send(body))
      .compose(response -> response.body().map(ignored -> String.valueOf(response.statusCode())))
      .otherwise(err -> err.getClass().getSimpleName())
      .compose(outcome -> {
        outcomes.merge(outcome, 1, Integer::sum);
        role.registry().counter("gestor_warm_up_sessions", "outcome", outcome).increment();
        return lane();
      });
  }
}
