package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Flow B (DG-CON-002, B1–B14): an improper write is detected and reacted to in order (ASR-2)")
class FlujoEscrituraTest {

  private static RunningApp app;
  private static Api api;
  private static TestTokens tokens;
  private static String area;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.allOf(Role.class));
    tokens = TestTokens.devIssuer(app.app().vertx());
    api = new Api(app.gatewayUrl(), tokens);
    area = Db.newActor(app.settings(), "SEGURIDAD");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("a read-only user's order: within 5 s revoked (403), sessions ended, order annulled, one alert")
  void improperWriteIsReactedTo() {
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    assertThat(Http.post(app.gatewayUrl() + "/v1/sesiones", api.token(consulta), "{\"huella\":\"consulta-telefono\"}").status()).isEqualTo(201);
    String pedido = api.pedidoAceptado(consulta);

    JsonObject alerta = await("the ACCESO_INDEBIDO alert").atMost(Duration.ofSeconds(10)).until(() -> api.alertas(area, consulta),
      list -> !list.isEmpty()).get(0);
    assertThat(alerta.getString("tipo")).isEqualTo("ACCESO_INDEBIDO");
    assertThat(alerta.getJsonObject("detalle").getString("pedido")).isEqualTo(pedido);
    Instant tDet = Instant.parse(alerta.getJsonObject("detalle").getString("t_det"));
    assertThat(Duration.between(tDet, Instant.parse(alerta.getString("entregado_en")))).isLessThanOrEqualTo(Duration.ofSeconds(5));

    Http.Response again = api.crearPedido(consulta, Api.pedido("T-1", "P-1", 1));
    assertThat(again.status()).isEqualTo(403);
    assertThat(again.json().getString("error")).isEqualTo("actor_revoked");
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM gestor.sesiones WHERE actor = ? AND terminada_en IS NULL", consulta)).isZero();
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM gestor.sesiones WHERE actor = ? AND motivo_fin = 'BLOQUEO'", consulta)).isEqualTo(1);
    assertThat(Db.strings(app.settings(), "SELECT bloqueado::text FROM gestor.actores WHERE id = ?", consulta)).containsExactly("true");
    assertThat(api.leerPedido(area, pedido).getString("estado")).isEqualTo("ANULADO");
    assertThat(Db.strings(app.settings(), "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta)).containsExactly("NOTIFICADA");
    assertThat(api.alertas(area, consulta)).hasSize(1);

    // The order chain stopped, and every stage either never acted or undid what it did.
    assertThat(Db.strings(app.settings(), "SELECT estado FROM cadena.cadenas WHERE pedido = ?::uuid", pedido)).containsExactly("DETENIDO");
    for (String schema : List.of("facturacion", "inventario", "despacho")) {
      await("the " + schema + " stage's key taken").atMost(Duration.ofSeconds(10)).until(() -> Db.count(app.settings(),
        "SELECT count(*) FROM " + schema + ".etapa_procesada WHERE pedido = ?::uuid AND etapa <> 'COMPENSACION'", pedido),
        n -> n == 1);
    }
    await("no invoice left standing").atMost(Duration.ofSeconds(10))
      .until(() -> Db.count(app.settings(), "SELECT count(*) FROM facturacion.facturas f WHERE f.pedido = ?::uuid "
        + "AND NOT EXISTS (SELECT 1 FROM facturacion.notas_credito n WHERE n.pedido = f.pedido)", pedido), n -> n == 0);
    await("no reservation left standing").atMost(Duration.ofSeconds(10))
      .until(() -> Db.count(app.settings(), "SELECT count(*) FROM inventario.reservas r WHERE r.pedido = ?::uuid "
        + "AND NOT EXISTS (SELECT 1 FROM inventario.etapa_procesada p WHERE p.pedido = r.pedido AND p.etapa = 'COMPENSACION')", pedido),
        n -> n == 0);
  }

  @Test
  @DisplayName("the database's own clock orders revocado_en ≤ block ≤ anulado_en ≤ entregado_en, all within t_det + 5 s")
  void stepsHappenInTheViewsOrder() {
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    // An open session, so that the block (B10) leaves a timestamp: gestor.actores has none of its own.
    assertThat(Http.post(app.gatewayUrl() + "/v1/sesiones", api.token(consulta), "{\"huella\":\"consulta-orden\"}").status())
      .isEqualTo(201);
    String pedido = api.pedidoAceptado(consulta);

    await("the reaction NOTIFICADA and its alert delivered").atMost(Duration.ofSeconds(15)).until(() ->
      Db.strings(app.settings(), "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta).equals(List.of("NOTIFICADA"))
        && Db.count(app.settings(), "SELECT count(*) FROM seguridad.avisos WHERE actor = ? AND entregado_en IS NOT NULL", consulta) == 1);

    // Every instant below but t_det is the one PostgreSQL server's now(); t_det is the Detector's clock on this host.
    Instant tDet = instante("SELECT t_det FROM seguridad.registro_reacciones WHERE actor = ?", consulta);
    Instant revocado = instante("SELECT revocado_en FROM seguridad.lista_revocacion WHERE actor = ?", consulta);
    Instant bloqueado = instante("SELECT terminada_en FROM gestor.sesiones WHERE actor = ? AND motivo_fin = 'BLOQUEO'", consulta);
    Instant anulado = instante("SELECT anulado_en FROM pedidos.pedidos WHERE id = ?::uuid", pedido);
    Instant entregado = instante("SELECT entregado_en FROM seguridad.avisos WHERE actor = ? AND tipo = 'ACCESO_INDEBIDO'", consulta);
    Instant terminada = instante("SELECT terminada_en FROM seguridad.registro_reacciones WHERE actor = ?", consulta);

    assertThat(revocado).as("revoked in the Lista de revocación after the detection").isAfterOrEqualTo(tDet);
    assertThat(bloqueado).as("blocked in the Gestor (B10) after revoked").isAfterOrEqualTo(revocado);
    assertThat(anulado).as("order annulled in Pedidos (B11) after blocked").isAfterOrEqualTo(bloqueado);
    assertThat(entregado).as("security notified (B12–B14) after the order annulled").isAfterOrEqualTo(anulado);
    assertThat(terminada).as("reaction recorded NOTIFICADA after the order annulled").isAfterOrEqualTo(anulado);
    assertThat(Duration.between(tDet, entregado)).as("t_det → alert delivered").isLessThanOrEqualTo(Duration.ofSeconds(5));
    assertThat(Duration.between(tDet, terminada)).as("t_det → reaction finished").isLessThanOrEqualTo(Duration.ofSeconds(5));
  }

  /** The one timestamp the query selects, read as JSON text so the server's offset travels with it. */
  private static Instant instante(String query, String param) {
    List<String> values = Db.strings(app.settings(), "SELECT to_json(t) #>> '{}' FROM (" + query + ") AS q(t)", param);
    assertThat(values).as(query).hasSize(1).doesNotContainNull();
    return OffsetDateTime.parse(values.get(0)).toInstant();
  }

  @Test
  @DisplayName("a writing vendedor's order yields no reaction")
  void allowedWriteIsLeftAlone() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    // The Detector's offset moves past a write only once its reaction, if any, is durably open.
    Topic.awaitHandled(app.settings(), ConsumidorEscrituras.COLA, Topics.ESCRITURA_REALIZADA, pedido);

    assertThat(api.leerPedido(vendedor, pedido).getString("estado")).isEqualTo("REGISTRADO");
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM seguridad.registro_reacciones WHERE actor = ?", vendedor)).isZero();
    assertThat(api.alertas(area, vendedor)).isEmpty();
    assertThat(api.crearPedido(vendedor, Api.pedido("T-2", "P-2", 3)).status()).isEqualTo(201);
  }

  @Test
  @DisplayName("the same escritura.realizada delivered twice yields one reaction and one alert")
  void duplicateWriteEventYieldsOneReaction() {
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    String pedido = api.pedidoAceptado(consulta);
    String original = await("the write event").atMost(Duration.ofSeconds(10)).until(
      () -> Topic.read(app.settings(), Topics.ESCRITURA_REALIZADA, r -> pedido.equals(r.key())), l -> !l.isEmpty())
      .get(0).value();
    Topic.send(app.settings(), Topics.ESCRITURA_REALIZADA, pedido, original);
    Topic.send(app.settings(), Topics.ESCRITURA_REALIZADA, pedido, original);

    await("the alert").atMost(Duration.ofSeconds(10)).until(() -> api.alertas(area, consulta), list -> !list.isEmpty());
    Topic.awaitHandled(app.settings(), ConsumidorEscrituras.COLA, Topics.ESCRITURA_REALIZADA, pedido);

    assertThat(Db.count(app.settings(), "SELECT count(*) FROM seguridad.registro_reacciones WHERE actor = ?", consulta)).isEqualTo(1);
    assertThat(api.alertas(area, consulta)).hasSize(1);
  }

  @Test
  @DisplayName("a write by an actor the Gestor does not know is treated as unauthorized: revoked and reacted to (fail closed)")
  void unknownWriterIsReactedTo() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    JsonObject original = new JsonObject(await("the write event").atMost(Duration.ofSeconds(10)).until(
      () -> Topic.read(app.settings(), Topics.ESCRITURA_REALIZADA, r -> pedido.equals(r.key())), l -> !l.isEmpty()).get(0).value());
    // The same write, as if an actor unknown to the Gestor's directory had made it (a producer the gateway never saw).
    String fantasma = "fantasma-" + UUID.randomUUID().toString().substring(0, 8);
    JsonObject forjada = original.copy().put("id", UUID.randomUUID().toString()).put("subject", fantasma);
    forjada.getJsonObject("data").put("actor", fantasma).put("id_escritura", UUID.randomUUID().toString());
    Topic.send(app.settings(), Topics.ESCRITURA_REALIZADA, pedido, forjada.encode());

    await("the unknown writer revoked").atMost(Duration.ofSeconds(10)).until(() -> Db.count(app.settings(),
      "SELECT count(*) FROM seguridad.lista_revocacion WHERE actor = ?", fantasma) == 1);
    await("its reaction finished and told").atMost(Duration.ofSeconds(10)).until(() -> api.alertas(area, fantasma), list -> !list.isEmpty());
    assertThat(api.alertas(area, fantasma).get(0).getString("tipo")).isEqualTo("ACCESO_INDEBIDO");
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM seguridad.lista_revocacion WHERE actor = ?", vendedor))
      .as("the real writer is not touched").isZero();
  }

  @Test
  @DisplayName("bad order bodies get 400 naming the field (413 when huge), and nothing is written")
  void badOrdersWriteNothing() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    assertBad(vendedor, "{\"tendero\":\"T-1\"}", "lineas");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[]}", "lineas");
    assertBad(vendedor, Api.pedido("T-1", "P-1", 0), "lineas[0].cantidad");
    assertBad(vendedor, Api.pedido("T-1", "P-1", -3), "lineas[0].cantidad");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":\"dos\"}]}", "lineas[0].cantidad");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1.5}]}", "lineas[0].cantidad");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1,\"precio\":9}]}", "lineas[0].precio");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1}],\"actor\":\"otro\"}", "actor");
    assertBad(vendedor, "{\"tendero\":7,\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1}]}", "tendero");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":{\"producto\":\"P-1\"}}", "lineas");
    assertBad(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[7]}", "lineas[0]");
    assertBad(vendedor, "no es json", "body");
    Http.Response huge = api.crearPedido(vendedor, "{\"tendero\":\"T-1\",\"lineas\":[" + "{\"producto\":\"P-1\",\"cantidad\":1},".repeat(3000) + "]}");
    assertThat(huge.status()).isEqualTo(413);

    assertThat(Db.count(app.settings(), "SELECT count(*) FROM pedidos.pedidos WHERE actor = ?", vendedor)).isZero();
  }

  @Test
  @DisplayName("a retried create with the same Idempotency-Key answers the first answer; another body with it is a 409")
  void idempotencyKey() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String key = UUID.randomUUID().toString();
    String body = Api.pedido("T-7", "P-7", 7);
    Http.Response first = Http.send("POST", app.gatewayUrl() + "/v1/pedidos", api.token(vendedor), body, "Idempotency-Key", key);
    Http.Response retry = Http.send("POST", app.gatewayUrl() + "/v1/pedidos", api.token(vendedor), body, "Idempotency-Key", key);
    Http.Response other = Http.send("POST", app.gatewayUrl() + "/v1/pedidos", api.token(vendedor), Api.pedido("T-7", "P-7", 8),
      "Idempotency-Key", key);

    assertThat(first.status()).isEqualTo(201);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.json().getString("pedido")).isEqualTo(first.json().getString("pedido"));
    assertThat(other.status()).isEqualTo(409);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM pedidos.pedidos WHERE actor = ?", vendedor)).isEqualTo(1);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM pedidos.outbox WHERE clave = ?", first.json().getString("pedido"))).isEqualTo(1);
  }

  @Test
  @DisplayName("one Idempotency-Key sent by many requests at once, beside other orders: one order, every answer the same")
  void idempotencyKeyAtOnce() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String key = UUID.randomUUID().toString();
    String body = Api.pedido("T-8", "P-8", 8);
    String url = app.gatewayUrl() + "/v1/pedidos";
    String token = api.token(vendedor);
    ExecutorService clients = Executors.newFixedThreadPool(32);
    try {
      // The orders each verticle takes while its previous statement is in flight go in one statement.
      List<Future<Http.Response>> mismas = new ArrayList<>();
      List<Future<Http.Response>> otras = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        mismas.add(clients.submit(() -> Http.send("POST", url, token, body, "Idempotency-Key", key)));
        otras.add(clients.submit(() -> Http.send("POST", url, token, Api.pedido("T-9", "P-9", 9))));
      }
      List<Http.Response> respuestas = mismas.stream().map(FlujoEscrituraTest::answer).toList();
      assertThat(respuestas).extracting(Http.Response::status).containsOnly(201);
      assertThat(respuestas).extracting(r -> r.json().getString("pedido")).containsOnly(respuestas.get(0).json().getString("pedido"));
      assertThat(otras.stream().map(FlujoEscrituraTest::answer)).extracting(Http.Response::status).containsOnly(201);
    } finally {
      clients.shutdownNow();
    }
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM pedidos.pedidos WHERE actor = ? AND tendero = 'T-8'", vendedor)).isEqualTo(1);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM pedidos.pedidos WHERE actor = ? AND tendero = 'T-9'", vendedor)).isEqualTo(16);
  }

  private static Http.Response answer(Future<Http.Response> response) {
    try {
      return response.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  @DisplayName("an order carries the writer from the token; others may read it only as CONSULTA or SEGURIDAD")
  void orderOwnershipAndReading() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String otro = Db.newActor(app.settings(), "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    assertThat(api.leerPedido(vendedor, pedido).getString("actor")).isEqualTo(vendedor);
    assertThat(Http.get(app.gatewayUrl() + "/v1/pedidos/" + pedido, api.token(otro)).status()).isEqualTo(403);
    assertThat(Http.get(app.gatewayUrl() + "/v1/pedidos/" + UUID.randomUUID(), api.token(vendedor)).status()).isEqualTo(404);
    assertThat(Http.get(app.gatewayUrl() + "/v1/pedidos/no-uuid", api.token(vendedor)).status()).isEqualTo(400);
  }

  @Test
  @DisplayName("internal endpoints take no App token (any profile: 401), only the calling role the view draws (another role's own key: 403), and the gateway does not expose them")
  void internalEndpointsAreGuarded() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String body = new JsonObject().put("actores", new JsonArray().add(vendedor)).encode();
    String permisos = gestorUrl() + "/interno/actores/permisos";
    String bloqueo = gestorUrl() + "/interno/actores/" + vendedor + "/bloqueo";
    for (String perfil : new String[] {"VENDEDOR", "CONSULTA", "SEGURIDAD", "OPERADOR"}) {
      String appToken = api.token(Db.newActor(app.settings(), perfil));
      assertInterno(Http.post(permisos, appToken, body), 401, "unauthorized");
      assertInterno(Http.post(bloqueo, appToken, "{}"), 401, "unauthorized");
    }
    // What a role minted before for another: an App token of the SISTEMA profile, signed by the issuer.
    assertInterno(Http.post(bloqueo, tokens.valid("seguridad-reaccion", "SISTEMA"), "{}"), 401, "unauthorized");
    var vertx = app.app().vertx();
    assertInterno(Http.post(bloqueo, TestTokens.peer(vertx, "gateway", "gestor"), "{}"), 403, "caller_not_allowed");
    assertInterno(Http.post(bloqueo, TestTokens.peer(vertx, "pedidos", "gestor"), "{}"), 403, "caller_not_allowed");
    assertInterno(Http.post(permisos, TestTokens.peer(vertx, "cadena", "gestor"), body), 403, "caller_not_allowed");
    // The Reacción's token for Pedidos is no token for the Gestor.
    assertInterno(Http.post(bloqueo, TestTokens.peer(vertx, "seguridad", "pedidos"), "{}"), 401, "unauthorized");
    assertThat(Db.strings(app.settings(), "SELECT bloqueado::text FROM gestor.actores WHERE id = ?", vendedor)).containsExactly("false");

    String anulacion = app.pedidosUrl() + "/interno/pedidos/" + UUID.randomUUID() + "/anulacion";
    String motivo = "{\"motivo\":\"prueba\"}";
    assertInterno(Http.post(anulacion, TestTokens.peer(vertx, "gateway", "pedidos"), motivo), 403, "caller_not_allowed");
    assertInterno(Http.post(anulacion, TestTokens.peer(vertx, "gestor", "pedidos"), motivo), 403, "caller_not_allowed");
    assertInterno(Http.post(anulacion, api.token(vendedor), motivo), 401, "unauthorized");
    assertThat(Http.post(anulacion, TestTokens.peer(vertx, "seguridad", "pedidos"), motivo).status()).isEqualTo(404);

    assertThat(Http.post(app.gatewayUrl() + "/interno/actores/permisos", TestTokens.peer(vertx, "seguridad", "gestor"), body)
      .status()).isEqualTo(404);
  }

  private static void assertInterno(Http.Response response, int status, String error) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.json().getString("error")).isEqualTo(error);
  }

  @Test
  @DisplayName("B5: the Gestor answers where each of several writers may write (vendedor orders, bodega stock), leaving out those it does not know")
  void permissionsOfSeveralWriters() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    String bodega = Db.newActor(app.settings(), "BODEGA");
    String sistema = TestTokens.peer(app.app().vertx(), "seguridad", "gestor");
    Http.Response answer = Http.post(gestorUrl() + "/interno/actores/permisos", sistema, new JsonObject()
      .put("actores", new JsonArray().add(vendedor).add(consulta).add(bodega).add("nadie-" + UUID.randomUUID())).encode());
    assertThat(answer.status()).isEqualTo(200);
    Map<String, List<Object>> escribenEn = new HashMap<>();
    for (Object p : answer.json().getJsonArray("permisos")) {
      escribenEn.put(((JsonObject) p).getString("actor"), ((JsonObject) p).getJsonArray("escribe_en").getList());
    }
    assertThat(escribenEn).containsExactlyInAnyOrderEntriesOf(Map.of(vendedor, List.of("pedidos"), consulta, List.of(),
      bodega, List.of("inventario")));

    for (String bad : new String[] {"{}", "{\"actores\":[]}", "{\"actores\":[\"a b\"]}", "{\"actores\":\"x\"}", "[1]"}) {
      Http.Response refused = Http.post(gestorUrl() + "/interno/actores/permisos", sistema, bad);
      assertThat(refused.status()).as(bad + " → " + refused.body()).isEqualTo(400);
      assertThat(refused.json().getString("error")).as(bad).isNotBlank();
    }
  }

  private static String gestorUrl() {
    return "http://127.0.0.1:" + app.settings().integer("gestor.port");
  }

  private static void assertBad(String actor, String body, String field) {
    Http.Response response = api.crearPedido(actor, body);
    assertThat(response.status()).as(body + " → " + response.body()).isEqualTo(400);
    assertThat(response.json().getString("field")).as(body).isEqualTo(field);
  }
}
