package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Notificador with a webhook: retried with back-off, never delivered twice after a success")
class WebhookTest {

  /** What the security area's webhook saw: one entry per request, "status id_alerta". */
  private static final List<String> requests = new CopyOnWriteArrayList<>();
  /** Per actor: the statuses the webhook answers, in order; 200 once they run out. */
  private static final Map<String, List<Integer>> script = new ConcurrentHashMap<>();

  private static Vertx webhookVertx;
  private static RunningApp app;
  private static TestTokens tokens;
  private static String area;

  @BeforeAll
  static void start() throws Exception {
    webhookVertx = Vertx.vertx();
    HttpServer webhook = webhookVertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      JsonObject alerta = body.toJsonObject();
      List<Integer> pending = script.getOrDefault(alerta.getString("actor"), List.of());
      int status = pending.isEmpty() ? 200 : pending.remove(0);
      requests.add(status + " " + request.getHeader("Idempotency-Key"));
      request.response().setStatusCode(status).end();
    })).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    app = RunningApp.start(SharedInfra.settings(Map.of(
      "notificador.webhook-url", "http://127.0.0.1:" + webhook.actualPort() + "/alertas",
      "notificador.retry-initial-ms", 50,
      "notificador.retry-max-ms", 200)), Set.of(Role.GESTOR, Role.SEGURIDAD));
    tokens = TestTokens.devIssuer(app.app().vertx());
    area = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
    webhookVertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("a webhook that fails twice then succeeds gets the alert once; the same alert again is not re-sent")
  void failsTwiceThenSucceeds() throws Exception {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    script.put(vendedor, new CopyOnWriteArrayList<>(List.of(503, 500)));
    String evento = sesionAbierta(vendedor, "intruso-webhook-1");
    abrir(vendedor, "casa-webhook-1");
    Topic.send(app, vendedor, evento);

    JsonObject alerta = await("the delivered alert").atMost(Duration.ofSeconds(15)).until(() -> alertas(vendedor),
      list -> list.size() == 1 && list.get(0).getString("entregado_en") != null).get(0);
    String id = alerta.getString("id_alerta");
    assertThat(requests).filteredOn(r -> r.endsWith(id)).containsExactly("503 " + id, "500 " + id, "200 " + id);
    assertThat(alerta.getInteger("intentos")).isEqualTo(3);

    Topic.send(app, vendedor, evento);
    abrir(vendedor, "marcador-webhook-1");
    await("the marker's alert").atMost(Duration.ofSeconds(15)).until(() -> alertas(vendedor), list -> list.size() == 2
      && list.stream().allMatch(a -> a.getString("entregado_en") != null));
    assertThat(requests).filteredOn(r -> r.endsWith(id)).hasSize(3);
  }

  @Test
  @DisplayName("a webhook that refuses an alert for good (4xx) sends it to cola.fallidos, and later alerts still go out")
  void permanentRefusalIsDeadLettered() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    script.put(vendedor, new CopyOnWriteArrayList<>(List.of(422)));
    abrir(vendedor, "casa-webhook-2");
    abrir(vendedor, "intruso-webhook-2");
    abrir(vendedor, "intruso-webhook-3");

    List<JsonObject> list = await("the second alert delivered").atMost(Duration.ofSeconds(15)).until(() -> alertas(vendedor),
      l -> l.size() == 2 && l.stream().anyMatch(a -> a.getString("entregado_en") != null));
    JsonObject refused = list.stream().filter(a -> a.getString("entregado_en") == null).findFirst().orElseThrow();
    assertThat(refused.getString("ultimo_error")).contains("422");
    assertThat(ccp.support.Topic.read(app.settings(), Topics.COLA_FALLIDOS, r -> r.value().contains(refused.getString("id_alerta"))))
      .singleElement().satisfies(r -> assertThat(new JsonObject(r.value()).getJsonObject("data").getString("motivo")).contains("422"));
  }

  private static String sesionAbierta(String vendedor, String huella) {
    String sesion = UUID.randomUUID().toString();
    return new JsonObject()
      .put("specversion", "1.0").put("id", sesion).put("type", "ccp.sesion.abierta").put("source", "/test")
      .put("time", Instant.now().toString()).put("subject", vendedor)
      .put("data", new JsonObject().put("sesion", sesion).put("vendedor", vendedor).put("huella", huella).put("t0", Instant.now().toString()))
      .encode();
  }

  private static void abrir(String vendedor, String huella) {
    Http.Response response = Http.post("http://127.0.0.1:" + app.settings().integer("gestor.port") + "/v1/sesiones",
      tokens.valid(vendedor, "VENDEDOR"), new JsonObject().put("huella", huella).encode());
    assertThat(response.status()).as(response.body()).isEqualTo(201);
  }

  private static List<JsonObject> alertas(String actor) {
    return Http.get(app.seguridadUrl() + "/v1/alertas?actor=" + actor, area).json().getJsonArray("alertas")
      .stream().map(JsonObject.class::cast).toList();
  }

  private static final class Topic {
    static void send(RunningApp app, String key, String value) {
      ccp.support.Topic.send(app.settings(), Topics.SESION_ABIERTA, key, value);
    }
  }
}
