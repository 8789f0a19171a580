package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Flow A (DG-CON-002, A1–A12): a session from an unknown device reaches the security area")
class FlujoSesionTest {

  private static RunningApp app;
  private static TestTokens tokens;
  private static String areaSeguridad;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.allOf(Role.class));
    tokens = TestTokens.devIssuer(app.app().vertx());
    areaSeguridad = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("a session from a device other than the registered one yields exactly one alert, notified within 2 s of t0")
  void mismatchRaisesOneAlertWithinBudget() {
    String vendedor = vendedorConDispositivo("casa-dispositivo-1");
    JsonObject abierta = abrir(vendedor, "intruso-dispositivo-9");
    Instant t0 = Instant.parse(abierta.getString("t0"));

    JsonObject alerta = alertasDe(vendedor, 1).get(0);
    assertThat(alerta.getString("tipo")).isEqualTo("DISPOSITIVO_NO_VALIDO");
    assertThat(alerta.getJsonObject("detalle").getString("sesion")).isEqualTo(abierta.getString("sesion"));
    assertThat(alerta.getJsonObject("detalle").getString("huella_presentada")).isEqualTo("intruso-dispositivo-9");
    assertThat(Duration.between(t0, Instant.parse(alerta.getString("entregado_en")))).isLessThanOrEqualTo(Duration.ofSeconds(2));

    abrir(vendedor, "marcador-posterior-1");
    assertThat(alertasDe(vendedor, 2)).extracting(a -> a.getJsonObject("detalle").getString("sesion"))
      .containsOnlyOnce(abierta.getString("sesion"));
  }

  /**
   * Many first uses at once, each vendedor's second session on the topic right behind its first while the Verificador
   * has many lookups in flight: the second is compared with what the first registered.
   */
  @Test
  @DisplayName("first uses at once: of many new vendedores' two devices, the first is registered and the second raises the one alert")
  void primerosUsosALaVez() throws Exception {
    List<String> vendedores = IntStream.range(0, 24).mapToObj(i -> Db.newActor(app.settings(), "VENDEDOR")).toList();
    ExecutorService clientes = Executors.newFixedThreadPool(vendedores.size());
    try {
      for (String huella : List.of("primer-dispositivo", "segundo-dispositivo")) {
        List<Future<JsonObject>> abiertas = vendedores.stream().map(v -> clientes.submit(() -> abrir(v, huella))).toList();
        for (Future<JsonObject> abierta : abiertas) abierta.get(30, TimeUnit.SECONDS);
      }
    } finally {
      clientes.shutdownNow();
    }
    for (String vendedor : vendedores) {
      assertThat(alertasDe(vendedor, 1)).extracting(a -> a.getJsonObject("detalle").getString("huella_presentada"))
        .containsExactly("segundo-dispositivo");
    }
    assertThat(Db.strings(app.settings(), "SELECT DISTINCT huella || '|' || origen FROM seguridad.registro_dispositivos"
      + " WHERE vendedor = ANY (string_to_array(?, ','))", String.join(",", vendedores)))
      .containsExactly("primer-dispositivo|PRIMER_USO");
  }

  @Test
  @DisplayName("sessions from the registered device yield no alert")
  void matchingDeviceRaisesNoAlert() {
    String vendedor = vendedorConDispositivo("casa-dispositivo-2");
    abrir(vendedor, "casa-dispositivo-2");
    abrir(vendedor, "casa-dispositivo-2");
    // Records of one vendedor are verified in order: once the marker's alert is out, the others were verified.
    abrir(vendedor, "marcador-dispositivo-2");
    assertThat(alertasDe(vendedor, 1)).singleElement()
      .satisfies(a -> assertThat(a.getJsonObject("detalle").getString("huella_presentada")).isEqualTo("marcador-dispositivo-2"));
  }

  @Test
  @DisplayName("a legitimate device change registered first yields no alert when the new device is used")
  void registeredChangeRaisesNoAlert() {
    String vendedor = vendedorConDispositivo("casa-dispositivo-3");
    Http.Response cambio = Http.put(app.seguridadUrl() + "/v1/dispositivos/" + vendedor, areaSeguridad, "{\"huella\":\"nuevo-telefono-3\"}");
    assertThat(cambio.status()).isEqualTo(200);
    assertThat(cambio.json().getString("origen")).isEqualTo("CAMBIO");

    abrir(vendedor, "nuevo-telefono-3");
    abrir(vendedor, "casa-dispositivo-3");
    assertThat(alertasDe(vendedor, 1)).singleElement()
      .satisfies(a -> assertThat(a.getJsonObject("detalle").getString("huella_presentada")).isEqualTo("casa-dispositivo-3"));
  }

  @Test
  @DisplayName("only the security area may register a device change: not another vendedor, not the vendedor itself")
  void deviceChangeIsGuarded() {
    String vendedor = vendedorConDispositivo("casa-dispositivo-4");
    String otro = Db.newActor(app.settings(), "VENDEDOR");
    Http.Response ajeno = Http.put(app.seguridadUrl() + "/v1/dispositivos/" + vendedor, token(otro), "{\"huella\":\"robado-4444\"}");
    assertThat(ajeno.status()).isEqualTo(403);
    Http.Response propio = Http.put(app.seguridadUrl() + "/v1/dispositivos/" + vendedor, token(vendedor), "{\"huella\":\"robado-4444\"}");
    assertThat(propio.status()).isEqualTo(403);
    assertThat(Http.put(app.seguridadUrl() + "/v1/dispositivos/bad%00id", areaSeguridad, "{\"huella\":\"repuesto-4444\"}").status())
      .isEqualTo(400);
    Http.Response area = Http.put(app.seguridadUrl() + "/v1/dispositivos/" + vendedor, areaSeguridad, "{\"huella\":\"repuesto-4444\"}");
    assertThat(area.status()).isEqualTo(200);
  }

  @Test
  @DisplayName("the same SesionAbierta delivered twice yields one alert")
  void duplicateEventYieldsOneAlert() {
    String vendedor = vendedorConDispositivo("casa-dispositivo-5");
    String sesion = UUID.randomUUID().toString();
    String evento = new JsonObject()
      .put("specversion", "1.0").put("id", sesion).put("type", "ccp.sesion.abierta").put("source", "/gestor")
      .put("time", Instant.now().toString()).put("subject", vendedor)
      .put("data", new JsonObject().put("sesion", sesion).put("vendedor", vendedor)
        .put("huella", "duplicado-5555").put("t0", Instant.now().toString()))
      .encode();
    SharedInfraTopics.send(vendedor, evento);
    SharedInfraTopics.send(vendedor, evento);
    abrir(vendedor, "marcador-dispositivo-5");

    List<JsonObject> alertas = alertasDe(vendedor, 2);
    assertThat(alertas).extracting(a -> a.getJsonObject("detalle").getString("sesion")).containsOnlyOnce(sesion);
  }

  @Test
  @DisplayName("bad bodies get 400 naming the field, bad tokens 401 naming the problem, and nothing is published")
  void badRequestsAreRefusedAndNothingIsPublished() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String valid = token(vendedor);
    String url = app.gestorUrl() + "/v1/sesiones";

    assertBad(Http.post(url, valid, "{\"huella\":"), 400, "body");
    assertBad(Http.post(url, valid, "{}"), 400, "huella");
    assertBad(Http.post(url, valid, "{\"huella\":12345678}"), 400, "huella");
    assertBad(Http.post(url, valid, "{\"huella\":\"corta\"}"), 400, "huella");
    assertBad(Http.post(url, valid, "{\"huella\":\"valida-123456\",\"extra\":true}"), 400, "extra");
    assertBad(Http.post(url, valid, "[\"huella\"]"), 400, "body");
    assertBad(Http.post(url, valid, "x".repeat(70_000)), 413, null);

    assertUnauthorized(Http.post(url, null, "{\"huella\":\"valida-123456\"}"), "missing Authorization");
    assertUnauthorized(Http.post(url, TestTokens.attacker(app.app().vertx()).valid(vendedor, "VENDEDOR"),
      "{\"huella\":\"valida-123456\"}"), "signature");
    assertUnauthorized(Http.post(url, tokens.expired(vendedor), "{\"huella\":\"valida-123456\"}"), "expired");
    assertUnauthorized(Http.post(url, tokens.withoutExpiry(vendedor), "{\"huella\":\"valida-123456\"}"), "expiry");
    assertUnauthorized(Http.post(url, "no.es.jwt", "{\"huella\":\"valida-123456\"}"), "not valid");

    assertThat(Http.post(url, token("desconocido-" + UUID.randomUUID()), "{\"huella\":\"valida-123456\"}").status()).isEqualTo(403);

    abrir(vendedor, "valida-123456");
    assertThat(SharedInfraTopics.sessionsOf(vendedor)).hasSize(1);
  }

  @Test
  @DisplayName("forged tokens get 401 on every port: another key, the old shared secret, no signature, too long a life, another audience or issuer")
  void forgedTokensAreRefused() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String body = "{\"huella\":\"forjada-123456\"}";
    // The HS256 secret every pod held before: whoever has it must not mint a token any more.
    String viejoSecreto = "test-secret-test-secret-test-secret-0123456789";
    for (String url : List.of(app.gestorUrl() + "/v1/sesiones", app.gatewayUrl() + "/v1/sesiones")) {
      String atacante = TestTokens.attacker(app.app().vertx()).valid(vendedor, "VENDEDOR");
      assertUnauthorized(Http.asAClient(() -> Http.post(url, atacante, body), Duration.ofSeconds(5)), "signature");
      String secretoViejo = TestTokens.sharedSecret(app.app().vertx(), viejoSecreto).valid(vendedor, "VENDEDOR");
      assertUnauthorized(Http.asAClient(() -> Http.post(url, secretoViejo, body), Duration.ofSeconds(5)), "not signed by a key of the issuer");
      assertUnauthorized(Http.post(url, TestTokens.unsigned(vendedor, "VENDEDOR"), body), "not valid");
      assertUnauthorized(Http.post(url, tokens.living(vendedor, "VENDEDOR", 61), body), "longer than the 3600 s allowed");
      assertUnauthorized(Http.post(url, tokens.forAudience(vendedor, "otra-app"), body), "audience");
      assertUnauthorized(Http.post(url, tokens.fromIssuer(vendedor, "https://otro-emisor"), body), "issuer");
    }
    assertThat(SharedInfraTopics.sessionsOf(vendedor)).isEmpty();
    assertThat(Http.post(app.gestorUrl() + "/v1/sesiones", tokens.living(vendedor, "VENDEDOR", 60), body).status()).isEqualTo(201);
  }

  @Test
  @DisplayName("the profile in the Gestor's directory authorizes, not the token's claim: a vendedor claiming SEGURIDAD, or an unregistered actor, gets 403")
  void directoryProfileAuthorizes() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    Http.Response claimed = Http.get(app.seguridadUrl() + "/v1/alertas?actor=" + vendedor, tokens.valid(vendedor, "SEGURIDAD"));
    assertThat(claimed.status()).as(claimed.body()).isEqualTo(403);
    assertThat(claimed.json().getString("error")).isEqualTo("perfil_mismatch");
    assertThat(claimed.json().getString("message")).contains("SEGURIDAD").contains("registered as VENDEDOR");
    Http.Response viaGateway = Http.post(app.gatewayUrl() + "/v1/sesiones", tokens.valid(vendedor, "CONSULTA"),
      "{\"huella\":\"valida-123456\"}");
    assertThat(viaGateway.status()).as(viaGateway.body()).isEqualTo(403);
    assertThat(viaGateway.json().getString("error")).isEqualTo("perfil_mismatch");

    Http.Response unknown = Http.post(app.gestorUrl() + "/v1/sesiones", token("nadie-" + UUID.randomUUID()), "{\"huella\":\"valida-123456\"}");
    assertThat(unknown.status()).isEqualTo(403);
    assertThat(unknown.json().getString("error")).isEqualTo("unknown_actor");
  }

  @Test
  @DisplayName("a blocked actor cannot open a session")
  void blockedActorIsRefused() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    Db.update(app.settings(), "UPDATE gestor.actores SET bloqueado = true WHERE id = ?", vendedor);
    Http.Response response = Http.post(app.gestorUrl() + "/v1/sesiones", token(vendedor), "{\"huella\":\"valida-123456\"}");
    assertThat(response.status()).isEqualTo(403);
    assertThat(response.json().getString("error")).isEqualTo("actor_blocked");
  }

  @Test
  @DisplayName("a poison record on sesion.abierta lands in cola.fallidos with its reason, and later records are still verified")
  void poisonRecordGoesToDeadLetters() {
    String vendedor = vendedorConDispositivo("casa-dispositivo-6");
    String poison = "esto no es un evento " + vendedor;
    SharedInfraTopics.send(vendedor, poison);
    abrir(vendedor, "intruso-dispositivo-6");
    alertasDe(vendedor, 1);

    var fallidos = await("the dead letter").atMost(Duration.ofSeconds(10)).until(
      () -> ccp.support.Topic.read(app.settings(), Topics.COLA_FALLIDOS, r -> r.value().contains(vendedor)),
      list -> !list.isEmpty());
    JsonObject data = new JsonObject(fallidos.get(0).value()).getJsonObject("data");
    assertThat(fallidos).hasSize(1);
    assertThat(data.getString("valor")).isEqualTo(poison);
    assertThat(data.getString("motivo")).contains("JSON");
    assertThat(data.getString("grupo")).isEqualTo("cola.verificador");
  }

  @Test
  @DisplayName("health, readiness and Prometheus metrics (with the asr1 timer, and each role's SQL statements apart) are served")
  void healthAndMetrics() {
    assertThat(Http.get(app.managementUrl() + "/health/live", null).status()).isEqualTo(200);
    // A check that misses its answer bound (1.5 s) on a loaded machine is down for that probe, as a kubelet's probe would
    // see it: readiness is asked again, as a kubelet does, and a failure says which check was down.
    Http.Response ready = Http.ready(app.managementUrl(), Duration.ofSeconds(20));
    assertThat(ready.json().getJsonArray("checks")).extracting(c -> ((JsonObject) c).getString("id"))
      .contains("postgresql", "cola.verificador", "cola.notificador");
    // A session is the Gestor's insert and the Verificador's lookup: a statement of each role's own client.
    abrir(vendedorConDispositivo("casa-dispositivo-metricas"), "casa-dispositivo-metricas");
    String metrics = Http.get(app.managementUrl() + "/metrics", null).body();
    assertThat(metrics).contains("asr1_seconds_bucket");
    for (String login : List.of("gestor", "seguridad")) {
      assertThat(metrics).contains("vertx_sql_processing_time_seconds_count{client_namespace=\"" + login + "\"}")
        .contains("vertx_sql_processing_pending{client_namespace=\"" + login + "\"}");
    }
  }

  private static String vendedorConDispositivo(String huella) {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    Http.Response response = Http.put(app.seguridadUrl() + "/v1/dispositivos/" + vendedor, areaSeguridad,
      new JsonObject().put("huella", huella).encode());
    assertThat(response.status()).isEqualTo(200);
    return vendedor;
  }

  private static JsonObject abrir(String vendedor, String huella) {
    Http.Response response = Http.post(app.gestorUrl() + "/v1/sesiones", token(vendedor), new JsonObject().put("huella", huella).encode());
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json();
  }

  /** Waits for {@code expected} alerts of the actor, and for no other to follow for a while. */
  private static List<JsonObject> alertasDe(String actor, int expected) {
    return await(expected + " alerts of " + actor).atMost(Duration.ofSeconds(15)).during(Duration.ofMillis(300))
      .until(() -> listar(actor), alertas -> alertas.size() == expected);
  }

  private static List<JsonObject> listar(String actor) {
    Http.Response response = Http.get(app.seguridadUrl() + "/v1/alertas?actor=" + actor, areaSeguridad);
    assertThat(response.status()).isEqualTo(200);
    JsonArray list = response.json().getJsonArray("alertas");
    return list.stream().map(JsonObject.class::cast).toList();
  }

  private static String token(String actor) {
    return tokens.valid(actor, "VENDEDOR");
  }

  private static void assertBad(Http.Response response, int status, String field) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.json().getString("error")).isNotBlank();
    if (field != null) assertThat(response.json().getString("field")).isEqualTo(field);
  }

  private static void assertUnauthorized(Http.Response response, String problem) {
    assertThat(response.status()).as(response.body()).isEqualTo(401);
    assertThat(response.json().getString("message")).contains(problem);
  }

  /** The session topic as seen from outside the system. */
  private static final class SharedInfraTopics {
    static void send(String key, String value) {
      ccp.support.Topic.send(app.settings(), Topics.SESION_ABIERTA, key, value);
    }

    static List<?> sessionsOf(String vendedor) {
      return ccp.support.Topic.read(app.settings(), Topics.SESION_ABIERTA, r -> vendedor.equals(r.key()));
    }
  }
}
