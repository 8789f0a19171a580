package ccp.platform.http;

import ccp.support.OnVertx;
import ccp.support.SharedInfra;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Admission control: beyond a route class's concurrency limit a request is refused at once (503, Retry-After, JSON); the security class is not starved by writes")
class AdmissionTest {

  private record Respuesta(int status, String retryAfter, JsonObject body, long ms) {}

  private Vertx vertx;
  private HttpClient client;
  private HttpServer server;
  private SimpleMeterRegistry registry;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    registry = new SimpleMeterRegistry();
    HttpConfig http = HttpConfig.from(SharedInfra.defaults().with(Map.of("http.admission-initial-limit", 4, "http.admission-min-limit", 4, "http.admission-max-limit", 4)));
    Router router = ApiRouter.create(vertx, http);
    router.route("/v1/*").handler(Admission.handler(vertx, http, registry));
    // Every admitted request is held 2 s: the ones beyond the limit arrive while the first four are in flight.
    router.route("/v1/*").handler(ctx -> vertx.setTimer(2_000, t -> ctx.response().end("{}")));
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    client = vertx.createHttpClient(new PoolOptions().setHttp1MaxSize(64));
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("20 writes at once with a limit of 4: 4 served, 16 refused at once; sessions meanwhile all served")
  void refusesBeyondTheLimitAndKeepsTheSecurityClass() throws Exception {
    List<Future<Respuesta>> escrituras = new ArrayList<>();
    for (int i = 0; i < 20; i++) escrituras.add(send(HttpMethod.POST, "/v1/pedidos"));
    List<Future<Respuesta>> sesiones = new ArrayList<>();
    for (int i = 0; i < 4; i++) sesiones.add(send(HttpMethod.POST, "/v1/sesiones"));
    List<Respuesta> w = new ArrayList<>();
    for (Future<Respuesta> f : escrituras) w.add(f.await(10, TimeUnit.SECONDS));
    List<Respuesta> s = new ArrayList<>();
    for (Future<Respuesta> f : sesiones) s.add(f.await(10, TimeUnit.SECONDS));

    List<Respuesta> served = w.stream().filter(r -> r.status() == 200).toList();
    assertThat(served).hasSize(4);
    List<Respuesta> refused = w.stream().filter(r -> r.status() == 503).toList();
    long firstServed = served.stream().mapToLong(Respuesta::ms).min().orElseThrow();
    assertThat(refused).hasSize(16).allSatisfy(r -> {
      assertThat(r.retryAfter()).isEqualTo("1");
      assertThat(r.body().getString("error")).isEqualTo("overloaded");
      assertThat(r.ms()).as("refused at once, not after waiting for a place").isLessThan(firstServed);
    });
    assertThat(s).extracting(Respuesta::status).containsOnly(200);
    assertThat(registry.get("http_admission_refused").tag("class", "escrituras").tag("reason", "limit").counter().count()).isEqualTo(16);
    assertThat(registry.get("http_admission_refused").tag("class", "seguridad").tag("reason", "limit").counter().count()).isZero();

    // Once the four are answered, the class admits again.
    assertThat(send(HttpMethod.POST, "/v1/pedidos").await(10, TimeUnit.SECONDS).status()).isEqualTo(200);
  }

  @Test
  @DisplayName("outside /v1 (health, metadata) nothing is limited; reads have their own limit")
  void routeClasses() throws Exception {
    List<Future<Respuesta>> lecturas = new ArrayList<>();
    for (int i = 0; i < 6; i++) lecturas.add(send(HttpMethod.GET, "/v1/pedidos/x"));
    List<Future<Respuesta>> escrituras = new ArrayList<>();
    for (int i = 0; i < 4; i++) escrituras.add(send(HttpMethod.POST, "/v1/pedidos"));
    List<Integer> leidas = new ArrayList<>();
    for (Future<Respuesta> f : lecturas) leidas.add(f.await(10, TimeUnit.SECONDS).status());
    List<Integer> escritas = new ArrayList<>();
    for (Future<Respuesta> f : escrituras) escritas.add(f.await(10, TimeUnit.SECONDS).status());
    assertThat(leidas).containsOnly(200, 503).filteredOn(status -> status == 200).hasSize(4);
    assertThat(escritas).containsOnly(200);
  }

  @Test
  @DisplayName("an event loop that runs behind refuses writes at once while it does, the security paths only four times later; it admits again once it keeps up")
  void anEventLoopBehindRefusesWritesFirst() throws Exception {
    HttpConfig http = HttpConfig.from(SharedInfra.defaults().with(Map.of("http.admission-delay-ms", 30)));
    AtomicBoolean busy = new AtomicBoolean();
    int[] port = new int[1];
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        Router router = ApiRouter.create(vertx, http);
        router.route("/v1/*").handler(Admission.handler(vertx, http, registry));
        router.route("/v1/*").handler(ctx -> ctx.response().end("{}"));
        // More work than the loop can do: 60 ms of it every 10 ms, so every tick of the delay's timer runs late.
        vertx.setPeriodic(10, id -> {
          if (busy.get()) spin(60);
        });
        return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").onSuccess(s -> port[0] = s.actualPort());
      }
    }).await(10, TimeUnit.SECONDS);
    assertThat(send(port[0], HttpMethod.POST, "/v1/pedidos").await(10, TimeUnit.SECONDS).status()).isEqualTo(200);

    busy.set(true);
    await("writes refused while the loop runs behind").atMost(Duration.ofSeconds(10))
      .until(() -> send(port[0], HttpMethod.POST, "/v1/pedidos").await(10, TimeUnit.SECONDS).status() == 503);
    Respuesta refused = send(port[0], HttpMethod.POST, "/v1/pedidos").await(10, TimeUnit.SECONDS);
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.retryAfter()).isEqualTo("1");
    assertThat(refused.body().getString("error")).isEqualTo("overloaded");
    for (int i = 0; i < 5; i++) {
      assertThat(send(port[0], HttpMethod.POST, "/v1/sesiones").await(10, TimeUnit.SECONDS).status())
        .as("a session, the loop 50-60 ms behind: under four times the delay").isEqualTo(200);
    }
    assertThat(registry.get("http_admission_refused").tag("class", "escrituras").tag("reason", "delay").counter().count()).isPositive();

    busy.set(false);
    await("writes admitted again once the loop keeps up").atMost(Duration.ofSeconds(10))
      .until(() -> send(port[0], HttpMethod.POST, "/v1/pedidos").await(10, TimeUnit.SECONDS).status() == 200);
  }

  @Test
  @DisplayName("an administrator's bursts of 64 device registrations are all admitted, even when every answer counts as slow, while sessions' limit shrinks")
  void anAdministratorsBurstIsAdmitted() throws Exception {
    // Every answer takes 20 ms against a 1 ms target, as a cold start's first answers do: each shrinks its class's limit,
    // down to a floor of 16 here, below a burst of 64.
    HttpConfig http = HttpConfig.from(SharedInfra.defaults().with(Map.of("http.admission-target-ms", 1, "http.admission-min-limit", 16)));
    int[] port = new int[1];
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        Router router = ApiRouter.create(vertx, http);
        router.route("/v1/*").handler(Admission.handler(vertx, http, registry));
        router.route("/v1/*").handler(ctx -> vertx.setTimer(20, t -> ctx.response().end("{}")));
        return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").onSuccess(s -> port[0] = s.actualPort());
      }
    }).await(10, TimeUnit.SECONDS);

    for (int burst = 0; burst < 4; burst++) {
      List<Future<Respuesta>> puts = new ArrayList<>();
      for (int i = 0; i < 64; i++) puts.add(send(port[0], HttpMethod.PUT, "/v1/dispositivos/vendedor-" + i));
      for (Future<Respuesta> put : puts) assertThat(put.await(10, TimeUnit.SECONDS).status()).as("burst " + burst).isEqualTo(200);
    }
    assertThat(registry.get("http_admission_refused").tag("class", "administracion").tag("reason", "limit").counter().count()).isZero();

    // The same bursts of sessions: their limit has shrunk to the floor of 16, so most of a later burst is refused.
    List<Integer> sesiones = new ArrayList<>();
    for (int burst = 0; burst < 4; burst++) {
      List<Future<Respuesta>> posts = new ArrayList<>();
      for (int i = 0; i < 64; i++) posts.add(send(port[0], HttpMethod.POST, "/v1/sesiones"));
      for (Future<Respuesta> post : posts) sesiones.add(post.await(10, TimeUnit.SECONDS).status());
    }
    assertThat(sesiones).contains(503);
  }

  private static void spin(long ms) {
    long until = System.nanoTime() + ms * 1_000_000;
    while (System.nanoTime() < until) Thread.onSpinWait();
  }

  private Future<Respuesta> send(HttpMethod method, String path) {
    return send(server.actualPort(), method, path);
  }

  private Future<Respuesta> send(int port, HttpMethod method, String path) {
    long began = System.nanoTime();
    return OnVertx.call(vertx, () -> client.request(method, port, "127.0.0.1", path)
      .compose(request -> request.send(Buffer.buffer("{}")))
      .compose(response -> response.body().map(body -> respuesta(response, body, began))));
  }

  private static Respuesta respuesta(HttpClientResponse response, Buffer body, long began) {
    return new Respuesta(response.statusCode(), response.getHeader("Retry-After"), body.length() == 0 ? new JsonObject() : body.toJsonObject(),
      TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
  }
}
