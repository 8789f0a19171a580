package ccp.seguridad;

import ccp.platform.http.Jose;
import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.http.Jwks;
import ccp.platform.http.KeySetRereads;
import ccp.seguridad.ssf.TiposEvento;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Shared Signals receiver: a provider's SET revokes its actor at every gateway within 1 s; a bad SET changes nothing")
class ReceptorSsfTest {

  private static final String PROVEEDOR = "https://idp.example.test/realms/ccp";
  private static final String AUDIENCIA = "ccp-receptor";

  private static Vertx idpVertx;
  private static JsonObject clave;
  /** The provider's JWK Set as it publishes it now; a test rotates keys by replacing it. */
  private static volatile JsonObject publicadas;
  private static RunningApp servicios;
  private static RunningApp puerta1;
  private static RunningApp puerta2;
  private static TestTokens tokens;
  private static Settings cluster;

  @BeforeAll
  static void start() throws Exception {
    clave = Jwks.generateRs256("idp-1");
    idpVertx = Vertx.vertx();
    publicadas = new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(clave)));
    HttpServer idp = idpVertx.createHttpServer().requestHandler(request -> request.response()
      .putHeader("Content-Type", "application/json").end(publicadas.encode())).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    cluster = SharedInfra.settings(Map.of("ssf.receptor.jwks-url", "http://127.0.0.1:" + idp.actualPort() + "/jwks",
      "ssf.receptor.issuer", PROVEEDOR, "ssf.receptor.audience", AUDIENCIA));
    servicios = RunningApp.start(cluster, Set.of(Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS));
    puerta1 = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.GATEWAY));
    puerta2 = RunningApp.start(SharedInfra.process(cluster, Map.of("gateway.port", SharedInfra.freePort())), Set.of(Role.GATEWAY));
    tokens = TestTokens.devIssuer(servicios.app().vertx());
  }

  @AfterAll
  static void stop() throws Exception {
    puerta2.close();
    puerta1.close();
    servicios.close();
    idpVertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("session-revoked through a gateway: 202, the actor's next request through either gateway is 403, an alert is raised; the same SET again is 202 and does nothing more")
  void sesionRevocada() {
    String actor = Db.newActor(cluster, "VENDEDOR");
    assertThat(leer(puerta1, actor).status()).as("the actor is let in before").isEqualTo(404);
    String set = set(clave, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor));

    Http.Response respuesta = enviar(puerta1, set);
    assertThat(respuesta.status()).as(respuesta.body()).isEqualTo(202);
    assertThat(leer(puerta1, actor).json().getString("error")).isEqualTo("actor_revoked");
    assertThat(leer(puerta2, actor).json().getString("error")).isEqualTo("actor_revoked");

    String area = tokens.valid(Db.newActor(cluster, "SEGURIDAD"), "SEGURIDAD");
    JsonObject alerta = await("the alert").atMost(Duration.ofSeconds(10)).until(() -> Http.get(servicios.seguridadUrl()
      + "/v1/alertas?actor=" + actor, area).json().getJsonArray("alertas"), list -> list.size() == 1).getJsonObject(0);
    assertThat(alerta.getString("tipo")).isEqualTo("SENAL_RECIBIDA");
    assertThat(alerta.getJsonObject("detalle").getString("tipo_evento")).isEqualTo(TiposEvento.SESION_REVOCADA);
    assertThat(alerta.getJsonObject("detalle").getString("iss")).isEqualTo(PROVEEDOR);

    // RFC 8935 §2: a SET received again (a transmitter that lost our 202) is answered as the first time, and has no
    // second effect: no second alert, and no revocation again once a person has lifted it.
    Http.Response repetido = enviar(puerta2, set);
    assertThat(repetido.status()).as(repetido.body()).isEqualTo(202);
    assertThat(Db.count(cluster, "SELECT count(*) FROM seguridad.avisos WHERE actor = ?", actor)).isEqualTo(1);
    Http.Response levantada = Http.post(servicios.seguridadUrl() + "/v1/revocaciones/" + actor + "/levantamiento", area,
      new JsonObject().put("motivo", "cierre de sesión rutinario").encode());
    assertThat(levantada.status()).as(levantada.body()).isEqualTo(200);
    assertThat(leer(puerta1, actor).status()).as("let in once lifted").isEqualTo(404);
    assertThat(enviar(puerta1, set).status()).isEqualTo(202);
    assertThat(leer(puerta1, actor).status()).as("the repeat revokes nothing again").isEqualTo(404);
    assertThat(Db.count(cluster, "SELECT count(*) FROM seguridad.avisos WHERE actor = ?", actor)).isEqualTo(1);
  }

  @Test
  @DisplayName("iat, nbf and exp enforced with the stated clock skew: each SET outside them refused (invalid_request naming the claim), nothing revoked")
  void fechas() {
    String actor = Db.newActor(cluster, "VENDEDOR");
    long ahora = Instant.now().getEpochSecond();
    long holgura = cluster.integer("ssf.receptor.clock-skew-s");
    assertFecha(actor, c -> c.put("exp", ahora - 3_600), "exp");
    assertFecha(actor, c -> c.put("exp", ahora - holgura - 5), "exp");
    assertFecha(actor, c -> c.put("nbf", ahora + 3_600), "nbf");
    assertFecha(actor, c -> c.remove("iat"), "iat");
    assertFecha(actor, c -> c.put("iat", ahora + 86_400), "iat");
    assertFecha(actor, c -> c.put("iat", String.valueOf(ahora)), "iat");
    assertFecha(actor, c -> c.put("exp", 9.3e18), "exp");
    assertThat(leer(puerta1, actor).status()).as("nothing revoked").isEqualTo(404);

    // Within the allowance: a provider's clock a little ahead, a SET just expired on ours.
    JsonObject dentro = claims(PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, new JsonObject(), opaco(actor), UUID.randomUUID().toString())
      .put("iat", ahora + holgura / 2).put("nbf", ahora + holgura / 2).put("exp", ahora - holgura / 2);
    Http.Response aceptado = enviar(puerta1, firmar(clave, cabecera(clave), dentro));
    assertThat(aceptado.status()).as(aceptado.body()).isEqualTo(202);
    assertThat(leer(puerta1, actor).json().getString("error")).isEqualTo("actor_revoked");
  }

  private static void assertFecha(String actor, java.util.function.Consumer<JsonObject> cambio, String claim) {
    JsonObject c = claims(PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, new JsonObject(), opaco(actor), UUID.randomUUID().toString());
    cambio.accept(c);
    Http.Response respuesta = enviar(puerta1, firmar(clave, cabecera(clave), c));
    assertThat(respuesta.status()).as(claim + ": " + respuesta.body()).isEqualTo(400);
    assertThat(respuesta.json().getString("err")).isEqualTo("invalid_request");
    assertThat(respuesta.json().getString("description")).as(respuesta.body()).startsWith(claim);
  }

  private static JsonObject cabecera(JsonObject key) {
    return new JsonObject().put("alg", "RS256").put("typ", "secevent+jwt").put("kid", key.getString("kid"));
  }

  @Test
  @DisplayName("credential-change and account-disabled revoke too; the provider's iss_sub and a complex subject's user name the actor")
  void otrasSenales() {
    String a = Db.newActor(cluster, "VENDEDOR");
    String b = Db.newActor(cluster, "CONSULTA");
    JsonObject cambio = new JsonObject().put("credential_type", "password").put("change_type", "update");
    assertThat(enviar(puerta1, set(clave, PROVEEDOR, new JsonArray().add("otro").add(AUDIENCIA), TiposEvento.CAMBIO_CREDENCIAL, cambio,
      new JsonObject().put("format", "iss_sub").put("iss", PROVEEDOR).put("sub", a), UUID.randomUUID().toString())).status()).isEqualTo(202);
    assertThat(enviar(puerta2, set(clave, PROVEEDOR, AUDIENCIA, TiposEvento.CUENTA_DESHABILITADA, new JsonObject().put("format", "complex")
      .put("user", opaco(b)))).status()).isEqualTo(202);
    assertThat(leer(puerta2, a).json().getString("error")).isEqualTo("actor_revoked");
    assertThat(leer(puerta1, b).json().getString("error")).isEqualTo("actor_revoked");
  }

  @Test
  @DisplayName("SETs that are not the provider's, not for us, of an unknown event or not SETs at all: RFC 8935's error, nothing revoked")
  void setsIndebidos() {
    String actor = Db.newActor(cluster, "VENDEDOR");
    JsonObject otraClaveMismoKid = Jwks.generateRs256("idp-1");
    JsonObject claveDesconocida = Jwks.generateRs256("intruso");
    // A signature that does not verify: invalid_key, as the OpenID SSF conformance suite expects (RFC 8935 §2.4).
    assertRechazado(set(otraClaveMismoKid, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor)), "invalid_key");
    // A key the provider does not publish even after the set is read again; a 503 is the re-read's bound (claveRotada).
    String sinClave = set(claveDesconocida, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor));
    assertRechazado(Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
      .until(() -> enviar(puerta1, sinClave), r -> r.status() != 503), "invalid_key");
    assertRechazado(set(clave, "https://otro.example.test", AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor)), "invalid_issuer");
    assertRechazado(set(clave, PROVEEDOR, "otra-audiencia", TiposEvento.SESION_REVOCADA, opaco(actor)), "invalid_audience");
    assertRechazado(set(clave, PROVEEDOR, AUDIENCIA, "https://schemas.openid.net/secevent/caep/event-type/token-claims-change",
      opaco(actor)), "invalid_request");
    assertRechazado(set(clave, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, new JsonObject().put("format", "email")
      .put("email", "x@example.test")), "invalid_request");
    assertRechazado(firmar(clave, new JsonObject().put("alg", "RS256").put("typ", "JWT").put("kid", "idp-1"),
      claims(PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, new JsonObject(), opaco(actor), UUID.randomUUID().toString())),
      "invalid_request");
    assertRechazado("esto no es un JWT", "invalid_request");
    String unsigned = b64(new JsonObject().put("alg", "none").put("typ", "secevent+jwt").encode()) + "."
      + b64(claims(PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, new JsonObject(), opaco(actor), "x").encode()) + ".";
    assertRechazado(unsigned, "invalid_request");
    Http.Response comoJson = Http.postAs(puerta1.gatewayUrl() + "/ssf/recepcion", "application/json",
      set(clave, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor)));
    assertThat(comoJson.status()).isEqualTo(400);

    assertThat(leer(puerta1, actor).status()).as("nothing revoked").isEqualTo(404);
    assertThat(Db.count(cluster, "SELECT count(*) FROM seguridad.ssf_recibidos WHERE actor = ?", actor)).isZero();
  }

  @Test
  @DisplayName("the provider rotates its key: the next SET, signed with the new key, is accepted at once (its key set read "
    + "again); a second rotation within the re-read's bound is answered 503 with Retry-After, never a final 400, then accepted")
  void claveRotada() {
    String antes = Db.newActor(cluster, "VENDEDOR");
    assertThat(enviar(puerta1, set(clave, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(antes))).status())
      .as("the provider's keys are read").isEqualTo(202);

    JsonObject nueva = publicar(Jwks.generateRs256("idp-rotada-" + UUID.randomUUID()));
    String actor = Db.newActor(cluster, "VENDEDOR");
    String set = set(nueva, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor));
    // Another test of this class may have spent the bound a moment ago: a transmitter asks again after a 503.
    Http.Response respuesta = Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> enviar(puerta1, set), r -> r.status() != 503);
    assertThat(respuesta.status()).as(respuesta.body()).isEqualTo(202);
    assertThat(leer(puerta2, actor).status()).isEqualTo(403);

    // Two rotations back to back: the second SET's key is new too, but the set was read for the first one a moment
    // ago, so the bound holds it: 503 with Retry-After, and accepted once the bound lets the set be read again.
    JsonObject otra = Jwks.generateRs256("idp-rotada-" + UUID.randomUUID());
    JsonObject tercera = Jwks.generateRs256("idp-rotada-" + UUID.randomUUID());
    String segundo = Db.newActor(cluster, "VENDEDOR");
    String tercero = Db.newActor(cluster, "VENDEDOR");
    String otroSet = set(otra, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(segundo));
    String tercerSet = set(tercera, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(tercero));
    publicar(otra);
    long inicio = System.nanoTime();
    Http.Response primera = enviar(puerta1, otroSet);
    publicar(tercera);
    Http.Response aplazada = enviar(puerta1, tercerSet);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - inicio);
    assertThat(primera.status()).as(primera.body()).isIn(202, 503);
    Assumptions.assumeTrue(ms < KeySetRereads.MIN_INTERVAL_MS - 1_000, "two requests took " + ms + " ms: the machine is too loaded to hold the bound");
    assertThat(aplazada.status()).as(aplazada.body()).isEqualTo(503);
    assertThat(Integer.parseInt(aplazada.header("Retry-After"))).isBetween(1, (int) (KeySetRereads.MIN_INTERVAL_MS / 1000));
    for (String pendiente : List.of(otroSet, tercerSet)) {
      Http.Response luego = Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
        .until(() -> enviar(puerta1, pendiente), r -> r.status() != 503);
      assertThat(luego.status()).as("never a final 400: " + luego.body()).isIn(202, 400);
      if (luego.status() == 400) assertThat(luego.json().getString("description")).contains("already received");
    }
    assertThat(leer(puerta1, segundo).status()).isEqualTo(403);
    assertThat(leer(puerta2, tercero).status()).isEqualTo(403);
  }

  /** The provider publishes {@code key} beside the ones it has, and signs with it from now on. */
  private static JsonObject publicar(JsonObject key) {
    JsonArray keys = publicadas.getJsonArray("keys").copy().add(Jwks.publicPart(key));
    publicadas = new JsonObject().put("keys", keys);
    return key;
  }

  @Test
  @DisplayName("measured: a SET's arrival to the actor's first refused request, 200 SETs through two gateways: p99 within 1 s")
  void latencia() {
    List<Long> ms = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String actor = Db.newActor(cluster, "VENDEDOR");
      RunningApp entrada = i % 2 == 0 ? puerta1 : puerta2;
      RunningApp otra = i % 2 == 0 ? puerta2 : puerta1;
      String set = set(clave, PROVEEDOR, AUDIENCIA, TiposEvento.SESION_REVOCADA, opaco(actor));
      long inicio = System.nanoTime();
      assertThat(enviar(entrada, set).status()).isEqualTo(202);
      assertThat(leer(otra, actor).status()).isEqualTo(403);
      ms.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - inicio));
    }
    Collections.sort(ms);
    long p50 = ms.get(99);
    long p99 = ms.get(197);
    System.out.printf("SSF receiver: SET arrival to first refused request, 200 SETs: p50 %d ms, p99 %d ms, max %d ms%n", p50, p99, ms.get(199));
    assertThat(p99).isLessThan(1_000);
  }

  private static void assertRechazado(String set, String err) {
    assertRechazado(enviar(puerta1, set), err);
  }

  private static void assertRechazado(Http.Response respuesta, String err) {
    assertThat(respuesta.status()).as(respuesta.body()).isEqualTo(400);
    assertThat(respuesta.json().getString("err")).as(respuesta.body()).isEqualTo(err);
    assertThat(respuesta.json().getString("description")).isNotBlank();
  }

  private static Http.Response enviar(RunningApp puerta, String set) {
    return Http.postAs(puerta.gatewayUrl() + "/ssf/recepcion", "application/secevent+jwt", set);
  }

  private static Http.Response leer(RunningApp puerta, String actor) {
    return Http.get(puerta.gatewayUrl() + "/v1/pedidos/" + UUID.randomUUID(), tokens.valid(actor, "VENDEDOR"));
  }

  private static JsonObject opaco(String actor) {
    return new JsonObject().put("format", "opaque").put("id", actor);
  }

  private static String set(JsonObject key, String iss, Object aud, String tipo, JsonObject sujeto) {
    return set(key, iss, aud, tipo, new JsonObject().put("event_timestamp", Instant.now().getEpochSecond()), sujeto,
      UUID.randomUUID().toString());
  }

  private static String set(JsonObject key, String iss, Object aud, String tipo, JsonObject evento, JsonObject sujeto, String jti) {
    return firmar(key, new JsonObject().put("alg", "RS256").put("typ", "secevent+jwt").put("kid", key.getString("kid")),
      claims(iss, aud, tipo, evento, sujeto, jti));
  }

  private static JsonObject claims(String iss, Object aud, String tipo, JsonObject evento, JsonObject sujeto, String jti) {
    return new JsonObject().put("iss", iss).put("aud", aud).put("jti", jti).put("iat", Instant.now().getEpochSecond())
      .put("sub_id", sujeto).put("events", new JsonObject().put(tipo, evento));
  }

  private static String firmar(JsonObject key, JsonObject header, JsonObject claims) {
    return Jose.signer(key.copy().put("alg", "RS256")).sign(header, claims.encode());
  }

  private static String b64(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
