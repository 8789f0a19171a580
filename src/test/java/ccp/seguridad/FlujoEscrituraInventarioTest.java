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
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Flow B on Inventario (DG-CON-002: B2 "RelevoOutbox de Pedidos o de Inventario", B7–B13 "compensa en Pedidos o
 * Inventario"): a stock adjustment is accepted, published from Inventario's own outbox, checked by the Detector and,
 * when its writer may not adjust stock, reverted by the Reacción.
 */
@DisplayName("Flow B on Inventario: an improper stock adjustment is detected, reverted and reacted to in order (ASR-2)")
class FlujoEscrituraInventarioTest {

  private static RunningApp app;
  private static Api api;
  private static String area;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.allOf(Role.class));
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
    area = Db.newActor(app.settings(), "SEGURIDAD");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("a read-only user's adjustment: within 5 s revoked (403), blocked, reverted in the adjustment's history, one alert; no order chain")
  void improperAdjustmentIsReverted() {
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    assertThat(Http.post(app.gatewayUrl() + "/v1/sesiones", api.token(consulta), "{\"huella\":\"consulta-bodega\"}").status()).isEqualTo(201);
    String producto = nuevoProducto();
    String ajuste = ajusteAceptado(consulta, producto, 10);

    JsonObject alerta = await("the ACCESO_INDEBIDO alert").atMost(Duration.ofSeconds(10)).until(() -> api.alertas(area, consulta),
      list -> !list.isEmpty()).get(0);
    assertThat(alerta.getString("tipo")).isEqualTo("ACCESO_INDEBIDO");
    JsonObject detalle = alerta.getJsonObject("detalle");
    assertThat(detalle.getString("servicio")).isEqualTo("inventario");
    assertThat(detalle.getString("ajuste")).isEqualTo(ajuste);
    assertThat(detalle.getJsonObject("compensacion").getInteger("revertidas")).isEqualTo(10);
    assertThat(detalle.getJsonObject("compensacion").getInteger("no_revertidas")).isZero();
    assertThat(detalle.getString("reaccion")).isEqualTo("revocado, bloqueado, escritura compensada");
    Instant tDet = Instant.parse(detalle.getString("t_det"));
    assertThat(Duration.between(tDet, Instant.parse(alerta.getString("entregado_en")))).isLessThanOrEqualTo(Duration.ofSeconds(5));

    Http.Response again = ajustar(consulta, ajusteBody(producto, 1), null);
    assertThat(again.status()).isEqualTo(403);
    assertThat(again.json().getString("error")).isEqualTo("actor_revoked");
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM gestor.sesiones WHERE actor = ? AND terminada_en IS NULL", consulta)).isZero();
    assertThat(Db.strings(app.settings(), "SELECT bloqueado::text FROM gestor.actores WHERE id = ?", consulta)).containsExactly("true");
    assertThat(Db.strings(app.settings(), "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta)).containsExactly("NOTIFICADA");

    JsonObject leido = leer(area, ajuste);
    assertThat(leido.getInteger("cantidad")).isEqualTo(10);
    assertThat(leido.getJsonObject("reversion").getInteger("cantidad")).isEqualTo(-10);
    assertThat(leido.getJsonObject("reversion").getInteger("no_revertidas")).isZero();
    assertThat(stock(producto)).isZero();
    assertThat(api.alertas(area, consulta)).hasSize(1);

    // The Coordinador read the adjustment's write too, and neither started a chain for it nor set it aside as a message
    // it could not process (a dead letter keeps the record's key, and is published before the offset moves).
    Topic.awaitHandled(app.settings(), "cola.coordinador.escrituras", Topics.ESCRITURA_REALIZADA, ajuste);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM cadena.cadenas WHERE pedido = ?::uuid", ajuste)).isZero();
    assertThat(Topic.read(app.settings(), Topics.COLA_FALLIDOS, r -> ajuste.equals(r.key()))).isEmpty();
  }

  @Test
  @DisplayName("a bodega's adjustment yields no reaction: the stock stays, the adjustment unreverted")
  void bodegaAdjustmentIsLeftAlone() {
    String bodega = Db.newActor(app.settings(), "BODEGA");
    String producto = nuevoProducto();
    String ajuste = ajusteAceptado(bodega, producto, 5);
    // The Detector's offset moves past a write only once its reaction, if any, is durably open.
    Topic.awaitHandled(app.settings(), ConsumidorEscrituras.COLA, Topics.ESCRITURA_REALIZADA, ajuste);

    assertThat(leer(bodega, ajuste).getValue("reversion")).isNull();
    assertThat(stock(producto)).isEqualTo(5);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM seguridad.registro_reacciones WHERE actor = ?", bodega)).isZero();
    assertThat(ajustar(bodega, ajusteBody(producto, -5), null).status()).isEqualTo(201);
    assertThat(stock(producto)).isZero();
  }

  @Test
  @DisplayName("the same escritura.realizada delivered twice, and the revert asked twice: one reaction, one revert, one alert")
  void redeliveryAppliesEachEffectOnce() {
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    String producto = nuevoProducto();
    String ajuste = ajusteAceptado(consulta, producto, 4);
    String original = await("the write event").atMost(Duration.ofSeconds(10)).until(
      () -> Topic.read(app.settings(), Topics.ESCRITURA_REALIZADA, r -> ajuste.equals(r.key())), l -> !l.isEmpty())
      .get(0).value();
    Topic.send(app.settings(), Topics.ESCRITURA_REALIZADA, ajuste, original);
    Topic.send(app.settings(), Topics.ESCRITURA_REALIZADA, ajuste, original);

    await("the alert").atMost(Duration.ofSeconds(10)).until(() -> api.alertas(area, consulta), list -> !list.isEmpty());
    Topic.awaitHandled(app.settings(), ConsumidorEscrituras.COLA, Topics.ESCRITURA_REALIZADA, ajuste);

    // The Reacción asking again (a resumed step) answers the one revert and changes nothing.
    Http.Response otra = Http.post(reversion(ajuste), TestTokens.peer(app.app().vertx(), "seguridad", "inventario"), "{\"motivo\":\"de nuevo\"}");
    assertThat(otra.status()).as(otra.body()).isEqualTo(200);
    assertThat(otra.json().getBoolean("revertido_ahora")).isFalse();
    assertThat(otra.json().getJsonObject("reversion").getInteger("cantidad")).isEqualTo(-4);

    assertThat(Db.count(app.settings(), "SELECT count(*) FROM seguridad.registro_reacciones WHERE actor = ?", consulta)).isEqualTo(1);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM inventario.ajustes WHERE revierte = ?::uuid", ajuste)).isEqualTo(1);
    assertThat(stock(producto)).isZero();
    assertThat(api.alertas(area, consulta)).hasSize(1);
  }

  @Test
  @DisplayName("a revert after part of the added units was reserved takes what remains, never below zero, and says what stayed")
  void revertNeverTakesStockNegative() throws Exception {
    String bodega = Db.newActor(app.settings(), "BODEGA");
    String producto = nuevoProducto();
    ajusteAceptado(bodega, producto, 2);
    String ajuste = ajusteAceptado(bodega, producto, 10);
    reservar(producto, 9);
    assertThat(stock(producto)).isEqualTo(3);

    String seguridad = TestTokens.peer(app.app().vertx(), "seguridad", "inventario");
    Http.Response primera = Http.post(reversion(ajuste), seguridad, "{\"motivo\":\"prueba\"}");
    assertThat(primera.status()).as(primera.body()).isEqualTo(200);
    assertThat(primera.json().getBoolean("revertido_ahora")).isTrue();
    JsonObject reversion = primera.json().getJsonObject("reversion");
    assertThat(reversion.getInteger("cantidad")).isEqualTo(-3);
    assertThat(reversion.getInteger("no_revertidas")).isEqualTo(7);
    assertThat(reversion.getInteger("disponible")).isZero();
    assertThat(stock(producto)).isZero();

    // Units come back meanwhile (a released reservation); the revert is done, and takes none of them.
    ajusteAceptado(bodega, producto, 6);
    Http.Response segunda = Http.post(reversion(ajuste), seguridad, "{\"motivo\":\"prueba\"}");
    assertThat(segunda.json().getBoolean("revertido_ahora")).isFalse();
    assertThat(segunda.json().getJsonObject("reversion")).isEqualTo(reversion);
    assertThat(stock(producto)).isEqualTo(6);
    assertThat(leer(bodega, ajuste).getJsonObject("reversion")).isEqualTo(reversion);
  }

  @Test
  @DisplayName("bad adjustments get 400 naming the field, a removal below zero 409, and nothing is written; a key's retry answers the first answer")
  void badAdjustmentsWriteNothing() {
    String bodega = Db.newActor(app.settings(), "BODEGA");
    String producto = nuevoProducto();
    assertBad(bodega, "{\"cantidad\":3}", "producto");
    assertBad(bodega, "{\"producto\":\"" + producto + "\"}", "cantidad");
    assertBad(bodega, ajusteBody(producto, 0), "cantidad");
    assertBad(bodega, "{\"producto\":\"" + producto + "\",\"cantidad\":1.5}", "cantidad");
    assertBad(bodega, "{\"producto\":\"" + producto + "\",\"cantidad\":\"tres\"}", "cantidad");
    assertBad(bodega, "{\"producto\":\"" + producto + "\",\"cantidad\":2000000}", "cantidad");
    assertBad(bodega, "{\"producto\":\"a b\",\"cantidad\":1}", "producto");
    assertBad(bodega, "{\"producto\":\"" + producto + "\",\"cantidad\":1,\"actor\":\"otro\"}", "actor");
    assertBad(bodega, "{\"producto\":\"" + producto + "\",\"cantidad\":1,\"motivo\":\"\"}", "motivo");
    assertBad(bodega, "no es json", "body");
    Http.Response badKey = ajustar(bodega, ajusteBody(producto, 1), "no vale");
    assertThat(badKey.status()).isEqualTo(400);
    assertThat(badKey.json().getString("field")).isEqualTo("Idempotency-Key");

    Http.Response sinStock = ajustar(bodega, ajusteBody(producto, -1), null);
    assertThat(sinStock.status()).as(sinStock.body()).isEqualTo(409);
    assertThat(sinStock.json().getString("error")).isEqualTo("insufficient_stock");
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM inventario.ajustes WHERE actor = ?", bodega)).isZero();
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM inventario.stock WHERE producto = ?", producto)).isZero();

    String key = UUID.randomUUID().toString();
    Http.Response first = ajustar(bodega, ajusteBody(producto, 3), key);
    Http.Response retry = ajustar(bodega, ajusteBody(producto, 3), key);
    Http.Response other = ajustar(bodega, ajusteBody(producto, 4), key);
    assertThat(first.status()).isEqualTo(201);
    assertThat(first.json().getInteger("disponible")).isEqualTo(3);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.json()).isEqualTo(first.json());
    assertThat(other.status()).isEqualTo(409);
    assertThat(other.json().getString("error")).isEqualTo("idempotency_key_reused");
    Http.Response tooMuch = ajustar(bodega, ajusteBody(producto, -4), null);
    assertThat(tooMuch.status()).isEqualTo(409);
    assertThat(stock(producto)).isEqualTo(3);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM inventario.ajustes WHERE actor = ?", bodega)).isEqualTo(1);
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM inventario.outbox WHERE clave = ?", first.json().getString("ajuste"))).isEqualTo(1);
  }

  @Test
  @DisplayName("adjustments are read by their writer, BODEGA, CONSULTA or SEGURIDAD only; the revert is the Reacción's only")
  void readingAndTheInternalRevertAreGuarded() {
    String bodega = Db.newActor(app.settings(), "BODEGA");
    String ajuste = ajusteAceptado(bodega, nuevoProducto(), 1);
    for (String perfil : List.of("BODEGA", "CONSULTA", "SEGURIDAD")) {
      assertThat(Http.get(app.gatewayUrl() + "/v1/inventario/ajustes/" + ajuste, api.token(Db.newActor(app.settings(), perfil)))
        .status()).as(perfil).isEqualTo(200);
    }
    for (String perfil : List.of("VENDEDOR", "OPERADOR")) {
      assertThat(Http.get(app.gatewayUrl() + "/v1/inventario/ajustes/" + ajuste, api.token(Db.newActor(app.settings(), perfil)))
        .status()).as(perfil).isEqualTo(403);
    }
    assertThat(Http.get(app.gatewayUrl() + "/v1/inventario/ajustes/" + UUID.randomUUID(), api.token(bodega)).status()).isEqualTo(404);
    assertThat(Http.get(app.gatewayUrl() + "/v1/inventario/ajustes/no-uuid", api.token(bodega)).status()).isEqualTo(400);

    var vertx = app.app().vertx();
    String motivo = "{\"motivo\":\"ataque\"}";
    for (String caller : List.of("gateway", "gestor", "pedidos", "cadena")) {
      Http.Response refused = Http.post(reversion(ajuste), TestTokens.peer(vertx, caller, "inventario"), motivo);
      assertThat(refused.status()).as(caller).isEqualTo(403);
      assertThat(refused.json().getString("error")).isEqualTo("caller_not_allowed");
    }
    assertThat(Http.post(reversion(ajuste), api.token(Db.newActor(app.settings(), "SEGURIDAD")), motivo).status()).isEqualTo(401);
    // The Reacción's token for Pedidos is no token for Inventario.
    assertThat(Http.post(reversion(ajuste), TestTokens.peer(vertx, "seguridad", "pedidos"), motivo).status()).isEqualTo(401);
    assertThat(Http.post(app.gatewayUrl() + "/interno/inventario/ajustes/" + ajuste + "/reversion",
      TestTokens.peer(vertx, "seguridad", "inventario"), motivo).status()).isEqualTo(404);
    assertThat(Http.post(app.inventarioUrl() + "/interno/inventario/ajustes/" + UUID.randomUUID() + "/reversion",
      TestTokens.peer(vertx, "seguridad", "inventario"), motivo).status()).isEqualTo(404);
    assertThat(leer(bodega, ajuste).getValue("reversion")).isNull();
  }

  private static String nuevoProducto() {
    return "P-" + UUID.randomUUID().toString().substring(0, 12);
  }

  private static String ajusteBody(String producto, int cantidad) {
    return new JsonObject().put("producto", producto).put("cantidad", cantidad).encode();
  }

  private static Http.Response ajustar(String actor, String body, String clave) {
    return clave == null ? Http.post(app.gatewayUrl() + "/v1/inventario/ajustes", api.token(actor), body)
      : Http.send("POST", app.gatewayUrl() + "/v1/inventario/ajustes", api.token(actor), body, "Idempotency-Key", clave);
  }

  private static String ajusteAceptado(String actor, String producto, int cantidad) {
    Http.Response response = ajustar(actor, ajusteBody(producto, cantidad), null);
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json().getString("ajuste");
  }

  private static JsonObject leer(String lector, String ajuste) {
    Http.Response response = Http.get(app.gatewayUrl() + "/v1/inventario/ajustes/" + ajuste, api.token(lector));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }

  private static String reversion(String ajuste) {
    return app.inventarioUrl() + "/interno/inventario/ajustes/" + ajuste + "/reversion";
  }

  private static long stock(String producto) {
    return Db.count(app.settings(), "SELECT coalesce(sum(disponible), 0) FROM inventario.stock WHERE producto = ?", producto);
  }

  /** An order's reservation by the Inventario stage's own statement, as its login runs it. */
  private static void reservar(String producto, int cantidad) throws Exception {
    try (var inventario = Db.as(app.settings(), "inventario");
         var s = inventario.prepareStatement("SELECT r_resultado FROM inventario.reservar(?::jsonb)")) {
      JsonArray lineas = new JsonArray().add(new JsonObject().put("producto", producto).put("cantidad", cantidad));
      s.setString(1, new JsonArray().add(new JsonObject().put("pedido", UUID.randomUUID().toString()).put("lineas", lineas)).encode());
      try (var rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("COMPLETADA");
      }
    }
  }

  private static void assertBad(String actor, String body, String field) {
    Http.Response response = ajustar(actor, body, null);
    assertThat(response.status()).as(body + " → " + response.body()).isEqualTo(400);
    assertThat(response.json().getString("field")).as(body).isEqualTo(field);
  }
}
