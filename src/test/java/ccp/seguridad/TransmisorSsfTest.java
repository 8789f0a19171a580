package ccp.seguridad;

import ccp.platform.http.Jose;
import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.seguridad.ssf.TiposEvento;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Shared Signals transmitter: every alert a signed SET per stream, pushed (RFC 8935) or polled (RFC 8936), each accepted once")
class TransmisorSsfTest {

  /** One request the test receiver got: its path, the status it answered, the SET and its content type. */
  private record Recibido(String path, int status, String set, String contentType, String authorization, Instant en) {
    JsonObject claims() {
      return Jose.parts(set).payload();
    }
  }

  private static final List<Recibido> recibidos = new CopyOnWriteArrayList<>();
  /** Per receiver path: the statuses to answer, in order; 202 once they run out. */
  private static final Map<String, List<Integer>> guion = new ConcurrentHashMap<>();
  private static final List<String> flujosCreados = new CopyOnWriteArrayList<>();
  /** Streams of clients other than the area's test actor: stream → its client's token. */
  private static final Map<String, String> borrarAlFinal = new ConcurrentHashMap<>();

  private static final int TIMEOUT_MS = 3_000;
  /** Streams per client: the area's test actor holds several at once across this class's tests. */
  private static final int CUPO = 12;

  private static Vertx receptorVertx;
  private static String receptor;
  private static RunningApp app;
  private static TestTokens tokens;
  private static String area;

  @BeforeAll
  static void start() throws Exception {
    receptorVertx = Vertx.vertx();
    HttpServer server = receptorVertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      List<Integer> pendientes = guion.getOrDefault(request.path(), List.of());
      int status = pendientes.isEmpty() ? 202 : pendientes.remove(0);
      recibidos.add(new Recibido(request.path(), status, body.toString(), request.getHeader("Content-Type"),
        request.getHeader("Authorization"), Instant.now()));
      if (status == 400) {
        // Chunked, no Content-Length, as many servers answer an error: its err must still be read and kept.
        request.response().setStatusCode(400).setChunked(true).putHeader("Content-Type", "application/json")
          .end(new JsonObject().put("err", "invalid_audience").put("description", "not for us").encode());
      } else {
        request.response().setStatusCode(status).end();
      }
    })).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    receptor = "http://127.0.0.1:" + server.actualPort();
    // A push timeout longer than the default: a receiver that never answers holds each of its pushes that long.
    app = RunningApp.start(SharedInfra.settings(Map.of("ssf.retry-initial-ms", 50, "ssf.retry-max-ms", 200, "ssf.barrido-ms", 100,
      "ssf.push-timeout-ms", TIMEOUT_MS, "ssf.streams-per-owner", CUPO)), Set.of(Role.GESTOR, Role.SEGURIDAD));
    tokens = TestTokens.devIssuer(app.app().vertx());
    area = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
  }

  @AfterAll
  static void stop() throws Exception {
    // The streams live in the shared database: gone with this class, so no later test pushes to a receiver that left.
    flujosCreados.forEach(id -> Http.send("DELETE", app.seguridadUrl() + "/v1/ssf/stream?stream_id=" + id, area, ""));
    borrarAlFinal.forEach((id, cliente) -> Http.send("DELETE", app.seguridadUrl() + "/v1/ssf/stream?stream_id=" + id, cliente, ""));
    app.close();
    receptorVertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("a wrong-device session: its SET arrives within 2 s, verifies against the published JWKS, and is the alert")
  void sesionDesdeDispositivoAjeno() {
    String path = "/push-dispositivo";
    JsonObject flujo = crearPush(path, new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO), "Bearer receptor-1");
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    abrir(vendedor, "casa-ssf-1");

    Instant t0 = Instant.now();
    abrir(vendedor, "intruso-ssf-1");
    Recibido llegado = await("the SET pushed").atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
      .until(() -> de(path, vendedor), list -> !list.isEmpty()).get(0);
    System.out.printf("SSF: wrong-device session to SET received in %d ms%n", Duration.between(t0, llegado.en()).toMillis());

    JsonObject claims = verificado(llegado.set());
    JsonObject alerta = Http.get(app.seguridadUrl() + "/v1/alertas?actor=" + vendedor, area).json().getJsonArray("alertas").getJsonObject(0);
    assertThat(llegado.contentType()).isEqualTo("application/secevent+jwt");
    assertThat(llegado.authorization()).isEqualTo("Bearer receptor-1");
    assertThat(Jose.parts(llegado.set()).header().getString("typ")).isEqualTo("secevent+jwt");
    assertThat(claims.getString("iss")).isEqualTo(app.settings().text("ssf.issuer"));
    assertThat(claims.getString("aud")).isEqualTo(flujo.getString("aud"));
    assertThat(claims.getString("jti")).isEqualTo(alerta.getString("id_alerta"));
    assertThat(claims.getJsonObject("sub_id")).isEqualTo(new JsonObject().put("format", "opaque").put("id", vendedor));
    assertThat(claims.containsKey("sub")).isFalse();
    assertThat(claims.containsKey("exp")).isFalse();
    assertThat(claims.getLong("iat")).isNotNull();
    assertThat(claims.getString("txn")).isNotBlank();
    assertThat(claims.getJsonObject("events").fieldNames()).containsExactly(TiposEvento.DISPOSITIVO_NO_VALIDO);
    assertThat(claims.getJsonObject("events").getJsonObject(TiposEvento.DISPOSITIVO_NO_VALIDO).getString("huella_presentada"))
      .isEqualTo("intruso-ssf-1");
    // The receiver has the SET before its 202 reaches the transmitter, which records the delivery then.
    await("the delivery recorded").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> entrega(
      Http.get(app.seguridadUrl() + "/v1/alertas?actor=" + vendedor, area).json().getJsonArray("alertas").getJsonObject(0), flujo)
      .getString("entregada_en") != null);

    // The same alert delivered again by Kafka: stored once, and nothing is sent again after the 202.
    ccp.support.Topic.send(app.settings(), Topics.ALERTA_SEGURIDAD, vendedor, alertaComoEvento(alerta));
    abrir(vendedor, "intruso-ssf-1b");
    await("the next alert's SET").atMost(Duration.ofSeconds(5)).until(() -> de(path, vendedor), list -> list.size() == 2);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> de(path, vendedor).size() == 2);
    assertThat(de(path, vendedor)).extracting(r -> r.claims().getString("jti")).doesNotHaveDuplicates();
  }

  @Test
  @DisplayName("a receiver answering 503 for a while: alerts are stored meanwhile, then each SET is accepted once, the same token each try")
  void receptorCaido() {
    String path = "/push-caido";
    JsonObject flujo = crearPush(path, new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO), null);
    guion.put(path, new CopyOnWriteArrayList<>(List.of(503, 503, 503, 503, 503, 503, 503, 503)));
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    abrir(vendedor, "casa-ssf-2");
    for (int i = 0; i < 3; i++) abrir(vendedor, "intruso-ssf-2-" + i);

    List<JsonObject> guardadas = await("the alerts stored while the receiver is down").atMost(Duration.ofSeconds(5))
      .until(() -> alertas("?actor=" + vendedor), list -> list.size() == 3);
    assertThat(alertas("?pendientes=true&actor=" + vendedor)).as("listed as undelivered while refused")
      .anyMatch(a -> entrega(a, flujo).getString("entregada_en") == null);

    await("each SET accepted").atMost(Duration.ofSeconds(20)).until(() -> aceptados(path, vendedor).size() == 3);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> aceptados(path, vendedor).size() == 3);
    List<Recibido> todos = de(path, vendedor);
    assertThat(todos).filteredOn(r -> r.status() == 503).isNotEmpty();
    assertThat(aceptados(path, vendedor)).extracting(r -> r.claims().getString("jti"))
      .containsExactlyInAnyOrderElementsOf(guardadas.stream().map(a -> a.getString("id_alerta")).toList());
    // A retry sends the very token of the first try: one SET, one jti, one signature.
    for (Recibido aceptado : aceptados(path, vendedor)) {
      assertThat(todos).filteredOn(r -> r.claims().getString("jti").equals(aceptado.claims().getString("jti")))
        .extracting(Recibido::set).containsOnly(aceptado.set());
    }
    assertThat(alertas("?actor=" + vendedor)).allSatisfy(a -> {
      assertThat(entrega(a, flujo).getString("entregada_en")).isNotNull();
      assertThat(entrega(a, flujo).getInteger("intentos")).isGreaterThanOrEqualTo(1);
    });
    assertThat(alertas("?actor=" + vendedor).stream().mapToInt(a -> entrega(a, flujo).getInteger("intentos")).sum())
      .as("tries, the refused ones included").isGreaterThan(3);

    // On /metrics, per stream: each 503 a retry, each SET accepted one delivery timed, none refused.
    await("the deliveries timed").atMost(Duration.ofSeconds(5)).until(() -> medida("ssf_delivery_seconds_count", flujo), n -> n == 3);
    assertThat(medida("ssf_delivery_retries_total", flujo)).isEqualTo(8);
    assertThat(metricas()).as("a latency histogram per stream")
      .containsPattern("\nssf_delivery_seconds_bucket\\{[^}]*stream=\"" + flujo.getString("stream_id") + "\"");
    assertThat(medidas("ssf_delivery_refused_total", flujo)).isEmpty();
  }

  @Test
  @DisplayName("a receiver refusing a SET for good (400 with RFC 8935's error) is not retried; the error is kept and shown")
  void rechazoDefinitivo() {
    String path = "/push-rechazo";
    JsonObject flujo = crearPush(path, new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO), null);
    guion.put(path, new CopyOnWriteArrayList<>(List.of(400)));
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    abrir(vendedor, "casa-ssf-3");
    abrir(vendedor, "intruso-ssf-3");
    await("the refusal recorded").atMost(Duration.ofSeconds(5)).until(() -> alertas("?pendientes=true&actor=" + vendedor),
      list -> list.size() == 1 && entrega(list.get(0), flujo).getString("rechazada_en") != null);
    assertThat(entrega(alertas("?actor=" + vendedor).get(0), flujo).getString("ultimo_error")).contains("400").contains("invalid_audience");
    abrir(vendedor, "intruso-ssf-3b");
    await("a later SET still goes out").atMost(Duration.ofSeconds(5)).until(() -> aceptados(path, vendedor).size() == 1);
    assertThat(de(path, vendedor)).hasSize(2);
    // On /metrics, per stream: the refusal counted once and never retried, the later SET's delivery timed.
    assertThat(medida("ssf_delivery_refused_total", flujo)).isEqualTo(1);
    await("the later SET timed").atMost(Duration.ofSeconds(5))
      .until(() -> medidas("ssf_delivery_seconds_count", flujo), l -> l.equals(List.of(1.0)));
    assertThat(medidas("ssf_delivery_retries_total", flujo)).isEmpty();

    // A redirect is not followed (it could lead anywhere): the receiver must fix its endpoint.
    String redirige = "/push-redirige";
    JsonObject otro = crearPush(redirige, new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO), null);
    guion.put(redirige, new CopyOnWriteArrayList<>(List.of(302)));
    abrir(vendedor, "intruso-ssf-3c");
    await("the redirect recorded as a refusal").atMost(Duration.ofSeconds(5)).until(() -> alertas("?actor=" + vendedor).stream()
      .anyMatch(a -> a.getJsonArray("entregas").stream().map(JsonObject.class::cast)
        .anyMatch(e -> e.getString("stream_id").equals(otro.getString("stream_id")) && e.getString("rechazada_en") != null
          && e.getString("ultimo_error").contains("302"))));
    assertThat(de(redirige, vendedor)).hasSize(1);
    assertThat(medida("ssf_delivery_refused_total", otro)).isEqualTo(1);
    assertThat(medidas("ssf_delivery_retries_total", otro)).isEmpty();
  }

  @Test
  @DisplayName("an improper write's alert: its reaction's outcomes as CAEP session-revoked, RISC account-disabled and the project's events, one txn")
  void reaccionEnEventosEstandar() {
    String path = "/push-reaccion";
    crearPush(path, null, null);
    String actor = Db.newActor(app.settings(), "CONSULTA");
    String idEscritura = java.util.UUID.randomUUID().toString();
    JsonObject alerta = new JsonObject().put("id_alerta", java.util.UUID.randomUUID().toString()).put("tipo", "ACCESO_INDEBIDO")
      .put("actor", actor).put("servicio", "pedidos").put("pedido", "P-SSF").put("id_escritura", idEscritura)
      .put("reaccion", "revocado, bloqueado, escritura compensada").put("t_det", Instant.now().toString());
    ccp.support.Topic.send(app.settings(), Topics.ALERTA_SEGURIDAD, actor, evento(alerta));

    List<Recibido> llegados = await("four SETs").atMost(Duration.ofSeconds(5)).until(() -> aceptados(path, actor), l -> l.size() == 4);
    assertThat(llegados).extracting(r -> r.claims().getJsonObject("events").fieldNames().iterator().next()).containsExactlyInAnyOrder(
      TiposEvento.ACCESO_INDEBIDO, TiposEvento.SESION_REVOCADA, TiposEvento.CUENTA_DESHABILITADA, TiposEvento.ESCRITURA_COMPENSADA);
    assertThat(llegados).extracting(r -> r.claims().getString("txn")).containsOnly(idEscritura);
    assertThat(llegados).extracting(r -> r.claims().getString("jti")).doesNotHaveDuplicates().contains(alerta.getString("id_alerta"));
    llegados.forEach(r -> verificado(r.set()));
  }

  @Test
  @DisplayName("poll delivery (RFC 8936): a SET waits until acknowledged, is returned the same until then, and not after")
  void sondeo() {
    String creador = Db.newActor(app.settings(), "SEGURIDAD");
    String cliente = tokens.valid(creador, "SEGURIDAD");
    Http.Response creado = Http.post(app.seguridadUrl() + "/v1/ssf/stream", cliente,
      new JsonObject().put("events_requested", new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO)).encode());
    assertThat(creado.status()).as(creado.body()).isEqualTo(201);
    JsonObject flujo = creado.json();
    assertThat(flujo.getJsonObject("delivery").getString("method")).isEqualTo("urn:ietf:rfc:8936");
    String url = flujo.getJsonObject("delivery").getString("endpoint_url");
    assertThat(url).isEqualTo(app.settings().text("ssf.issuer") + "/v1/ssf/poll/" + flujo.getString("stream_id"));
    String poll = app.seguridadUrl() + "/v1/ssf/poll/" + flujo.getString("stream_id");
    borrarAlFinal.put(flujo.getString("stream_id"), cliente);

    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    abrir(vendedor, "casa-ssf-4");
    abrir(vendedor, "intruso-ssf-4");
    JsonObject sets = await("the SET to poll").atMost(Duration.ofSeconds(5))
      .until(() -> Http.post(poll, cliente, new JsonObject().put("returnImmediately", true).encode()).json().getJsonObject("sets"),
        s -> s.stream().anyMatch(e -> sujeto((String) e.getValue()).equals(vendedor)));
    String jti = sets.stream().filter(e -> sujeto((String) e.getValue()).equals(vendedor)).findFirst().orElseThrow().getKey();
    String set = sets.getString(jti);
    verificado(set);
    assertThat(Http.post(poll, cliente, "{}").json().getJsonObject("sets").getString(jti)).as("the same until acknowledged").isEqualTo(set);

    JsonObject respuesta = Http.post(poll, cliente, new JsonObject().put("ack", new JsonArray().add(jti)).put("maxEvents", 10).encode()).json();
    assertThat(respuesta.getJsonObject("sets").containsKey(jti)).isFalse();
    assertThat(respuesta.getBoolean("moreAvailable")).isFalse();
    assertThat(Http.post(poll, cliente, "{}").json().getJsonObject("sets").containsKey(jti)).isFalse();
    assertThat(Http.post(poll, cliente, new JsonObject().put("maxEvents", -1).encode()).status()).isEqualTo(400);
    assertThat(Http.post(poll, cliente, new JsonObject().put("ack", new JsonArray().add("x"))
      .put("setErrs", new JsonObject().put("x", new JsonObject().put("err", "invalid_key"))).encode()).status()).isEqualTo(400);
    String otro = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
    assertThat(Http.post(poll, otro, "{}").status()).as("another client cannot poll (and ack) this stream").isEqualTo(404);
    assertThat(flujo.getString("aud")).as("a poll stream's audience is its client").endsWith(":" + creador);
  }

  @Test
  @DisplayName("stream management: metadata, create, read, update, replace, status, verification, delete; SEGURIDAD only")
  void gestionDeFlujos() {
    String ssf = app.seguridadUrl();
    JsonObject metadatos = Http.get(ssf + "/.well-known/ssf-configuration", null).json();
    String issuer = app.settings().text("ssf.issuer");
    assertThat(metadatos.getString("issuer")).isEqualTo(issuer);
    assertThat(metadatos.getString("spec_version")).isEqualTo("1_0");
    assertThat(metadatos.getString("jwks_uri")).isEqualTo(issuer + "/ssf/jwks");
    assertThat(metadatos.getString("configuration_endpoint")).isEqualTo(issuer + "/v1/ssf/stream");
    assertThat(metadatos.getJsonArray("delivery_methods_supported")).containsExactlyInAnyOrder("urn:ietf:rfc:8935", "urn:ietf:rfc:8936");

    String path = "/push-gestion";
    JsonObject flujo = crearPush(path, new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO).add("urn:example:unknown"), null);
    String id = flujo.getString("stream_id");
    assertThat(flujo.getString("iss")).isEqualTo(issuer);
    assertThat(flujo.getJsonArray("events_delivered")).containsExactly(TiposEvento.DISPOSITIVO_NO_VALIDO);
    assertThat(flujo.containsKey("authorization_header")).isFalse();
    assertThat(Http.get(ssf + "/v1/ssf/stream?stream_id=" + id, area).json()).isEqualTo(flujo);
    assertThat(new JsonArray(Http.get(ssf + "/v1/ssf/stream", area).body()).stream()
      .map(o -> ((JsonObject) o).getString("stream_id"))).contains(id);

    Http.Response parche = Http.send("PATCH", ssf + "/v1/ssf/stream", area, new JsonObject().put("stream_id", id)
      .put("description", "SIEM de prueba").encode());
    assertThat(parche.status()).as(parche.body()).isEqualTo(200);
    assertThat(parche.json().getString("description")).isEqualTo("SIEM de prueba");
    assertThat(parche.json().getJsonObject("delivery")).isEqualTo(flujo.getJsonObject("delivery"));
    Http.Response otroAud = Http.send("PATCH", ssf + "/v1/ssf/stream", area, new JsonObject().put("stream_id", id).put("aud", "x").encode());
    assertThat(otroAud.status()).isEqualTo(400);
    assertThat(otroAud.json().getString("field")).isEqualTo("aud");
    Http.Response reemplazo = Http.send("PUT", ssf + "/v1/ssf/stream", area, new JsonObject().put("stream_id", id)
      .put("delivery", flujo.getJsonObject("delivery")).put("events_requested", new JsonArray().add(TiposEvento.SESION_REVOCADA)).encode());
    assertThat(reemplazo.status()).as(reemplazo.body()).isEqualTo(200);
    assertThat(reemplazo.json().getJsonArray("events_delivered")).containsExactly(TiposEvento.SESION_REVOCADA);
    assertThat(reemplazo.json().containsKey("description")).isFalse();

    // Paused: the verification event is held; enabled again: it goes out, with the state the receiver gave.
    assertThat(Http.post(ssf + "/v1/ssf/status", area, new JsonObject().put("stream_id", id).put("status", "paused")
      .put("reason", "mantenimiento").encode()).json()).isEqualTo(new JsonObject().put("stream_id", id).put("status", "paused")
      .put("reason", "mantenimiento"));
    assertThat(Http.post(ssf + "/v1/ssf/verify", area, new JsonObject().put("stream_id", id).put("state", "abc").encode()).status())
      .isEqualTo(204);
    assertThat(Http.post(ssf + "/v1/ssf/verify", area, new JsonObject().put("stream_id", id).encode()).status()).as("too soon")
      .isEqualTo(429);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> de(path, id).isEmpty());
    Http.post(ssf + "/v1/ssf/status", area, new JsonObject().put("stream_id", id).put("status", "enabled").encode());
    Recibido verificacion = await("the verification SET").atMost(Duration.ofSeconds(5)).until(() -> de(path, id), l -> l.size() == 1).get(0);
    JsonObject claims = verificado(verificacion.set());
    assertThat(claims.getJsonObject("events").getJsonObject(TiposEvento.VERIFICACION).getString("state")).isEqualTo("abc");
    assertThat(Http.get(ssf + "/v1/ssf/status?stream_id=" + id, area).json().getString("status")).isEqualTo("enabled");

    // Only the security area manages streams; bad input is named.
    String vendedor = tokens.valid(Db.newActor(app.settings(), "VENDEDOR"), "VENDEDOR");
    assertThat(Http.get(ssf + "/v1/ssf/stream", null).status()).isEqualTo(401);
    assertThat(Http.get(ssf + "/v1/ssf/stream", vendedor).status()).isEqualTo(403);
    Http.Response malo = Http.post(ssf + "/v1/ssf/stream", area, new JsonObject().put("delivery",
      new JsonObject().put("method", "urn:ietf:rfc:8935").put("endpoint_url", "ftp://x")).encode());
    assertThat(malo.status()).isEqualTo(400);
    assertThat(malo.json().getString("field")).isEqualTo("delivery.endpoint_url");
    assertThat(Http.post(ssf + "/v1/ssf/status", area, new JsonObject().put("stream_id", id).put("status", "off").encode()).status())
      .isEqualTo(400);
    assertThat(Http.get(ssf + "/v1/ssf/status?stream_id=" + "0".repeat(32), area).status()).isEqualTo(404);

    // A stream is its creator's: another client of the security area neither sees nor touches it (SSF 1.0 §8).
    String otro = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
    assertThat(Http.get(ssf + "/v1/ssf/stream?stream_id=" + id, otro).status()).isEqualTo(404);
    assertThat(new JsonArray(Http.get(ssf + "/v1/ssf/stream", otro).body()).stream()
      .map(o -> ((JsonObject) o).getString("stream_id"))).doesNotContain(id);
    assertThat(Http.send("PATCH", ssf + "/v1/ssf/stream", otro, new JsonObject().put("stream_id", id)
      .put("delivery", new JsonObject().put("method", "urn:ietf:rfc:8935").put("endpoint_url", "http://127.0.0.1:1/robado")).encode())
      .status()).isEqualTo(404);
    assertThat(Http.post(ssf + "/v1/ssf/status", otro, new JsonObject().put("stream_id", id).put("status", "disabled").encode())
      .status()).isEqualTo(404);
    assertThat(Http.get(ssf + "/v1/ssf/status?stream_id=" + id, otro).status()).isEqualTo(404);
    assertThat(Http.send("DELETE", ssf + "/v1/ssf/stream?stream_id=" + id, otro, "").status()).isEqualTo(404);
    assertThat(Http.get(ssf + "/v1/ssf/stream?stream_id=" + id, area).json().getJsonObject("delivery"))
      .isEqualTo(flujo.getJsonObject("delivery"));
    Http.Response otroEndpoint = Http.send("PATCH", ssf + "/v1/ssf/stream", area, new JsonObject().put("stream_id", id)
      .put("delivery", new JsonObject().put("method", "urn:ietf:rfc:8935").put("endpoint_url", receptor + "/otro")).encode());
    assertThat(otroEndpoint.status()).as("the endpoint is the receiver's identity (its aud)").isEqualTo(400);

    assertThat(Http.send("DELETE", ssf + "/v1/ssf/stream?stream_id=" + id, area, "").status()).isEqualTo(204);
    assertThat(Http.get(ssf + "/v1/ssf/stream?stream_id=" + id, area).status()).isEqualTo(404);
    flujosCreados.remove(id);
  }

  @Test
  @DisplayName("through the gateway: the metadata and the JWK Set open to anyone, stream management behind the App's token check")
  void porLaPuerta() throws Exception {
    try (RunningApp puerta = RunningApp.start(SharedInfra.process(app.settings(), Map.of()), Set.of(Role.GATEWAY))) {
      String gw = puerta.gatewayUrl();
      Http.Response metadatos = Http.get(gw + "/.well-known/ssf-configuration", null);
      assertThat(metadatos.status()).as(metadatos.body()).isEqualTo(200);
      assertThat(metadatos.json()).isEqualTo(Http.get(app.seguridadUrl() + "/.well-known/ssf-configuration", null).json());
      Http.Response jwks = Http.get(gw + "/ssf/jwks", null);
      assertThat(jwks.status()).as(jwks.body()).isEqualTo(200);
      assertThat(jwks.json()).isEqualTo(Http.get(app.seguridadUrl() + "/ssf/jwks", null).json());

      String pedido = new JsonObject().put("events_requested", new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO)).encode();
      assertThat(Http.post(gw + "/v1/ssf/stream", null, pedido).status()).as("no token: refused at the gateway").isEqualTo(401);
      Http.Response creado = Http.post(gw + "/v1/ssf/stream", area, pedido);
      assertThat(creado.status()).as(creado.body()).isEqualTo(201);
      String id = creado.json().getString("stream_id");
      flujosCreados.add(id);
      assertThat(Http.get(app.seguridadUrl() + "/v1/ssf/stream?stream_id=" + id, area).json()).as("created at seguridad")
        .isEqualTo(creado.json());
      assertThat(Http.get(gw + "/v1/ssf/stream?stream_id=" + id, area).json()).isEqualTo(creado.json());
      assertThat(Http.send("DELETE", gw + "/v1/ssf/stream?stream_id=" + id, area, "").status()).isEqualTo(204);
      assertThat(Http.get(app.seguridadUrl() + "/v1/ssf/stream?stream_id=" + id, area).status()).isEqualTo(404);
      flujosCreados.remove(id);
    }
  }

  @Test
  @DisplayName("a receiver that accepts and never answers, beside a healthy one: the healthy stream's delivery time is as alone; deleting the stalled stream duplicates nothing")
  void receptorMudoNoDetieneAOtros() throws Exception {
    List<Integer> conexiones = new CopyOnWriteArrayList<>();
    NetServer agujero = receptorVertx.createNetServer().connectHandler(socket -> conexiones.add(1)).listen(0, "127.0.0.1")
      .await(10, TimeUnit.SECONDS);
    String sano = "/push-sano";
    crearPush(sano, new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO), null);
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    Map<String, Object> config = new java.util.HashMap<>(ccp.support.Topic.as(app.settings(), Role.SEGURIDAD));
    config.put("acks", "all");
    try (KafkaProducer<String, String> productor = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      medir(productor, sano, vendedor, 5);
      List<Long> solo = medir(productor, sano, vendedor, 30);
      JsonObject mudo = crearPushA("http://127.0.0.1:" + agujero.actualPort() + "/mudo",
        new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO));
      List<Long> acompanado = medir(productor, sano, vendedor, 30);
      System.out.printf("SSF isolation: healthy stream's delivery (alert published to SET received), 30 alerts: alone p50 %d ms,"
        + " p99 %d ms; beside a black-holed stream p50 %d ms, p99 %d ms (push timeout %d ms)%n",
        p(solo, 50), p(solo, 99), p(acompanado, 50), p(acompanado, 99), TIMEOUT_MS);
      assertThat(conexiones).as("the black hole was pushed to").isNotEmpty();
      assertThat(p(acompanado, 99)).as("the healthy stream's p99 beside a black hole, against alone (%s)", solo)
        .isLessThanOrEqualTo(Math.max(3 * p(solo, 99), p(solo, 99) + 500)).isLessThan(TIMEOUT_MS / 2);

      // The stalled stream deleted while its pushes hang: the healthy one gets every SET once, the deleted one nothing more.
      assertThat(Http.send("DELETE", app.seguridadUrl() + "/v1/ssf/stream?stream_id=" + mudo.getString("stream_id"), area, "")
        .status()).isEqualTo(204);
      flujosCreados.remove(mudo.getString("stream_id"));
      medir(productor, sano, vendedor, 5);
      // Its pushes in flight are cut off at the push timeout; after that it is never connected to again.
      await().pollDelay(Duration.ofMillis(TIMEOUT_MS + 500)).until(() -> true);
      int despues = conexiones.size();
      await("nothing pushed to the deleted stream").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
        .until(() -> conexiones.size() == despues);
    }
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> de(sano, vendedor).size() == 70);
    assertThat(de(sano, vendedor)).extracting(r -> r.claims().getString("jti")).doesNotHaveDuplicates();
    agujero.close();
  }

  @Test
  @DisplayName("a client holds at most ssf.streams-per-owner streams, even asking in parallel: 409 too_many_streams naming the quota; counted per client on /metrics")
  void cupoPorDueno() throws Exception {
    String dueno = Db.newActor(app.settings(), "SEGURIDAD");
    String cliente = tokens.valid(dueno, "SEGURIDAD");
    String pedido = new JsonObject().put("events_requested", new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO)).encode();
    java.util.concurrent.ExecutorService hilos = java.util.concurrent.Executors.newFixedThreadPool(8);
    List<java.util.concurrent.Future<Http.Response>> pedidos = new ArrayList<>();
    for (int i = 0; i < CUPO + 6; i++) pedidos.add(hilos.submit(() -> Http.post(app.seguridadUrl() + "/v1/ssf/stream", cliente, pedido)));
    List<Http.Response> respuestas = new ArrayList<>();
    for (java.util.concurrent.Future<Http.Response> p : pedidos) respuestas.add(p.get(30, TimeUnit.SECONDS));
    hilos.shutdown();
    respuestas.stream().filter(r -> r.status() == 201).forEach(r -> borrarAlFinal.put(r.json().getString("stream_id"), cliente));
    assertThat(respuestas).filteredOn(r -> r.status() == 201).hasSize(CUPO);
    Http.Response negado = respuestas.stream().filter(r -> r.status() != 201).findFirst().orElseThrow();
    assertThat(negado.status()).as(negado.body()).isEqualTo(409);
    assertThat(negado.json().getString("error")).isEqualTo("too_many_streams");
    assertThat(negado.json().getString("message")).contains(dueno).contains(String.valueOf(CUPO)).contains("ssf.streams-per-owner");

    String otro = tokens.valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
    Http.Response ajeno = Http.post(app.seguridadUrl() + "/v1/ssf/stream", otro, pedido);
    assertThat(ajeno.status()).as("another client is not held back: " + ajeno.body()).isEqualTo(201);
    borrarAlFinal.put(ajeno.json().getString("stream_id"), otro);
    await("the streams counted per client").atMost(Duration.ofSeconds(15))
      .until(() -> metricas().contains("ssf_streams{owner=\"" + dueno + "\"} " + CUPO + ".0"));

    String uno = borrarAlFinal.entrySet().stream().filter(e -> e.getValue().equals(cliente)).findFirst().orElseThrow().getKey();
    assertThat(Http.send("DELETE", app.seguridadUrl() + "/v1/ssf/stream?stream_id=" + uno, cliente, "").status()).isEqualTo(204);
    borrarAlFinal.remove(uno);
    Http.Response otraVez = Http.post(app.seguridadUrl() + "/v1/ssf/stream", cliente, pedido);
    assertThat(otraVez.status()).as("a deleted stream frees its place: " + otraVez.body()).isEqualTo(201);
    borrarAlFinal.put(otraVez.json().getString("stream_id"), cliente);
  }

  /** Publishes {@code n} wrong-device alerts about {@code vendedor}, one at a time, each timed to its SET received at {@code path}. */
  private static List<Long> medir(KafkaProducer<String, String> productor, String path, String vendedor, int n) throws Exception {
    List<Long> ms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = java.util.UUID.randomUUID().toString();
      JsonObject alerta = new JsonObject().put("id_alerta", id).put("tipo", "DISPOSITIVO_NO_VALIDO").put("actor", vendedor)
        .put("sesion", java.util.UUID.randomUUID().toString()).put("huella_presentada", "mudo-" + i);
      long inicio = System.nanoTime();
      productor.send(new ProducerRecord<>(Topics.ALERTA_SEGURIDAD, vendedor, evento(alerta))).get(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2))
        .until(() -> de(path, vendedor).stream().anyMatch(r -> r.claims().getString("jti").equals(id)));
      ms.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - inicio));
    }
    return ms;
  }

  private static long p(List<Long> ms, int percentil) {
    List<Long> orden = new ArrayList<>(ms);
    java.util.Collections.sort(orden);
    return orden.get(Math.min(orden.size() - 1, (int) Math.ceil(percentil / 100.0 * orden.size()) - 1));
  }

  /** The one value of {@code serie} for {@code flujo} on the process's /metrics, as Prometheus scrapes it. */
  private static double medida(String serie, JsonObject flujo) {
    List<Double> valores = medidas(serie, flujo);
    assertThat(valores).as(serie + " of stream " + flujo.getString("stream_id")).hasSize(1);
    return valores.get(0);
  }

  /** The values of {@code serie} tagged with {@code flujo}'s id: none until its first sample. */
  private static List<Double> medidas(String serie, JsonObject flujo) {
    String etiqueta = "stream=\"" + flujo.getString("stream_id") + "\"";
    return metricas().lines().filter(l -> l.startsWith(serie + "{") && l.contains(etiqueta))
      .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).toList();
  }

  private static String metricas() {
    return Http.get(app.managementUrl() + "/metrics", null).body();
  }

  /** The alert's delivery to {@code flujo}: other tests' streams get the same alerts. */
  private static JsonObject entrega(JsonObject alerta, JsonObject flujo) {
    return alerta.getJsonArray("entregas").stream().map(JsonObject.class::cast)
      .filter(e -> e.getString("stream_id").equals(flujo.getString("stream_id"))).findFirst().orElseThrow();
  }

  private static JsonObject crearPush(String path, JsonArray eventos, String authorization) {
    return crearPushA(receptor + path, eventos, authorization);
  }

  private static JsonObject crearPushA(String url, JsonArray eventos) {
    return crearPushA(url, eventos, null);
  }

  private static JsonObject crearPushA(String url, JsonArray eventos, String authorization) {
    JsonObject delivery = new JsonObject().put("method", "urn:ietf:rfc:8935").put("endpoint_url", url);
    if (authorization != null) delivery.put("authorization_header", authorization);
    JsonObject body = new JsonObject().put("delivery", delivery);
    if (eventos != null) body.put("events_requested", eventos);
    Http.Response response = Http.post(app.seguridadUrl() + "/v1/ssf/stream", area, body.encode());
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    flujosCreados.add(response.json().getString("stream_id"));
    return response.json();
  }

  /** The claims of {@code set}, its signature checked against the transmitter's published JWK Set. */
  private static JsonObject verificado(String set) {
    JsonObject jwks = Http.get(app.seguridadUrl() + "/ssf/jwks", null).json();
    List<JsonObject> keys = new ArrayList<>();
    jwks.getJsonArray("keys").forEach(key -> keys.add((JsonObject) key));
    try {
      return Jose.KeySet.of(keys).verify(set);
    } catch (RuntimeException e) {
      throw new AssertionError("the SET does not verify against the published JWKS", e);
    }
  }

  private static String sujeto(String set) {
    return Jose.parts(set).payload().getJsonObject("sub_id").getString("id");
  }

  private static List<Recibido> de(String path, String sujeto) {
    List<Recibido> list = new ArrayList<>();
    for (Recibido r : recibidos) if (r.path().equals(path) && sujeto(r.set()).equals(sujeto)) list.add(r);
    return list;
  }

  private static List<Recibido> aceptados(String path, String sujeto) {
    return de(path, sujeto).stream().filter(r -> r.status() == 202).toList();
  }

  private static List<JsonObject> alertas(String query) {
    return Http.get(app.seguridadUrl() + "/v1/alertas" + query, area).json().getJsonArray("alertas")
      .stream().map(JsonObject.class::cast).toList();
  }

  private static void abrir(String vendedor, String huella) {
    Http.Response response = Http.post(app.gestorUrl() + "/v1/sesiones", tokens.valid(vendedor, "VENDEDOR"),
      new JsonObject().put("huella", huella).encode());
    assertThat(response.status()).as(response.body()).isEqualTo(201);
  }

  private static String alertaComoEvento(JsonObject alerta) {
    return evento(alerta.getJsonObject("detalle"));
  }

  private static String evento(JsonObject data) {
    return new JsonObject().put("specversion", "1.0").put("id", data.getString("id_alerta")).put("type", "ccp.alerta.seguridad")
      .put("source", "/test").put("time", Instant.now().toString()).put("subject", data.getString("actor")).put("data", data).encode();
  }
}
