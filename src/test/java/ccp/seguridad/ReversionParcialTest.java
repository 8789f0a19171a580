package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The Reacción's revert of a stock adjustment whose units were reserved meanwhile takes what remains, and the alert says what stayed")
class ReversionParcialTest {

  @Test
  @DisplayName("a read-only user adds 10 units, 7 are reserved before the revert: 3 taken back, stock 0 (never below), the alert names the 7")
  void unidadesReservadasSeQuedan() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("reaccion.reanudar-tras-ms", 500));
    try (RunningApp puerta = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.PEDIDOS, Role.CADENA, Role.INVENTARIO));
         PeerAveriado inventario = PeerAveriado.delante(puerta.app().vertx(), cluster.text("inventario.url"), "/reversion",
           PeerAveriado.Modo.QUINIENTOS)) {
      Api api = new Api(puerta.gatewayUrl(), TestTokens.devIssuer(puerta.app().vertx()));
      String consulta = Db.newActor(cluster, "CONSULTA");
      String area = Db.newActor(cluster, "SEGURIDAD");
      String producto = "P-" + UUID.randomUUID().toString().substring(0, 12);
      Http.Response escrito = Http.post(puerta.gatewayUrl() + "/v1/inventario/ajustes", api.token(consulta),
        new JsonObject().put("producto", producto).put("cantidad", 10).encode());
      assertThat(escrito.status()).as(escrito.body()).isEqualTo(201);
      String ajuste = escrito.json().getString("ajuste");

      try (RunningApp seguridad = RunningApp.start(SharedInfra.process(cluster, Map.of("inventario.url", inventario.url())),
        Set.of(Role.SEGURIDAD))) {
        // Revoked and blocked; the revert held back while an order reserves 7 of the 10 units.
        await("the reaction held before the revert").atMost(Duration.ofSeconds(20)).until(() -> inventario.averiadas() > 0
          && Db.strings(cluster, "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta).equals(List.of("BLOQUEADA")));
        reservar(cluster, producto, 7);
        inventario.sanar();

        JsonObject alerta = await("the ACCESO_INDEBIDO alert").atMost(Duration.ofSeconds(20)).until(
          () -> api.alertas(area, consulta).stream().filter(a -> "ACCESO_INDEBIDO".equals(a.getString("tipo"))).toList(),
          l -> !l.isEmpty()).get(0);
        JsonObject compensacion = alerta.getJsonObject("detalle").getJsonObject("compensacion");
        assertThat(compensacion.getString("ajuste")).isEqualTo(ajuste);
        assertThat(compensacion.getInteger("revertidas")).isEqualTo(3);
        assertThat(compensacion.getInteger("no_revertidas")).isEqualTo(7);
        assertThat(alerta.getJsonObject("detalle").getString("reaccion")).contains("7 de 10 unidades de " + producto);

        assertThat(Db.count(cluster, "SELECT disponible FROM inventario.stock WHERE producto = ?", producto)).isZero();
        assertThat(Db.count(cluster, "SELECT count(*) FROM inventario.reservas WHERE producto = ?", producto)).isEqualTo(1);
        Http.Response leido = Http.get(puerta.gatewayUrl() + "/v1/inventario/ajustes/" + ajuste, api.token(area));
        assertThat(leido.json().getJsonObject("reversion").getInteger("cantidad")).isEqualTo(-3);
        assertThat(leido.json().getJsonObject("reversion").getInteger("no_revertidas")).isEqualTo(7);
        assertThat(Db.strings(cluster, "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta)).containsExactly("NOTIFICADA");
      }
    }
  }

  /** An order's reservation by the Inventario stage's own statement, as its login runs it. */
  private static void reservar(Settings settings, String producto, int cantidad) throws Exception {
    JsonArray lineas = new JsonArray().add(new JsonObject().put("producto", producto).put("cantidad", cantidad));
    try (Connection inventario = Db.as(settings, "inventario");
         PreparedStatement s = inventario.prepareStatement("SELECT r_resultado FROM inventario.reservar(?::jsonb)")) {
      s.setString(1, new JsonArray().add(new JsonObject().put("pedido", UUID.randomUUID().toString()).put("lineas", lineas)).encode());
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("COMPLETADA");
      }
    }
  }
}
