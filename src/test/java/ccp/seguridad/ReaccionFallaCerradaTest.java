package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.http.Jwks;
import ccp.platform.kafka.EventTypes;
import ccp.seguridad.ssf.TiposEvento;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The Reacción fails closed: a peer that refuses or does not answer holds the reaction, never skips a step")
class ReaccionFallaCerradaTest {

  /** Short, so the tests are: the reaction is told stuck once its t_det is this old. */
  private static final int PRESUPUESTO_MS = 1_500;

  @Test
  @DisplayName("a seguridad whose key the Gestor rejects → the writer stays revoked, the area and the Bandeja are told; "
    + "once the keys agree the reaction finishes once")
  void claveRechazada() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("reaccion.reanudar-tras-ms", 500, "asr2.budget-ms", PRESUPUESTO_MS));
    try (RunningApp puerta = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.PEDIDOS, Role.CADENA))) {
      Caso caso = Caso.nuevo(cluster, puerta);
      // The write was detected, and its reaction opened (B7), by the pod before a key rotation, which then went away;
      // the pod after the rotation signs with a key the Gestor (and Pedidos) do not know yet.
      Db.update(cluster, """
        INSERT INTO seguridad.registro_reacciones (id_escritura, actor, servicio, pedido, t_det, paso, actualizada_en)
        VALUES (?::uuid, ?, 'pedidos', ?, now(), 'ABIERTA', now() - interval '1 hour')""", caso.idEscritura, caso.consulta, caso.pedido);
      Settings rotada = SharedInfra.process(cluster, Map.of("peer.private-key", Jwks.generateEs256("seguridad").encode()));
      try (RunningApp seguridad = RunningApp.start(rotada, Set.of(Role.SEGURIDAD))) {
        caso.detenida();
        // The Detector cannot ask the Gestor about the write either: it keeps it, and says so.
        await("the area told the Detector is stuck").atMost(Duration.ofSeconds(20))
          .until(caso::tipos, t -> t.contains(PublicadorAlertas.DETECCION_DETENIDA));
        await("the Bandeja's item of the Detector").atMost(Duration.ofSeconds(15)).until(() -> caso.items(PublicadorAlertas.DETECCION_DETENIDA),
          l -> l.size() == 1);
      }
      try (RunningApp seguridad = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.SEGURIDAD))) {
        caso.terminadaUnaVez(PublicadorAlertas.DETECCION_DETENIDA);
      }
    }
  }

  @ParameterizedTest(name = "the Gestor''s block answering {0}")
  @EnumSource(value = PeerAveriado.Modo.class, names = {"QUINIENTOS", "MUDO"})
  @DisplayName("a Gestor answering 500, or nothing, past the budget → the same: revoked, told, then finished once; the "
    + "revocation reaches the Shared Signals receivers while the reaction is stuck, and each outcome is one SET")
  void gestorAveriado(PeerAveriado.Modo modo) throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("reaccion.reanudar-tras-ms", 500, "asr2.budget-ms", PRESUPUESTO_MS));
    try (RunningApp puerta = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.PEDIDOS, Role.CADENA));
         PeerAveriado gestor = PeerAveriado.delante(puerta.app().vertx(), cluster.text("gestor.url"), "/bloqueo", modo)) {
      try (RunningApp seguridad = RunningApp.start(SharedInfra.process(cluster,
        Map.of("gestor.url", gestor.url(), "http.client-timeout-ms", 700)),
        Set.of(Role.SEGURIDAD));
           ReceptorPush receptor = ReceptorPush.registrado(puerta.app().vertx(), seguridad.seguridadUrl(),
             TestTokens.devIssuer(puerta.app().vertx()).valid(Db.newActor(cluster, "SEGURIDAD"), "SEGURIDAD"))) {
        Caso caso = Caso.nuevo(cluster, puerta);
        caso.detenida();
        assertThat(gestor.averiadas()).as("the block was tried again and again").isGreaterThan(1);
        // Revoked is an outcome that happened: its receivers hear it with the stuck reaction, not once the Gestor heals.
        await("the revocation's SET while the reaction is stuck").atMost(Duration.ofSeconds(10))
          .until(() -> receptor.tipos(caso.consulta), t -> t.contains(TiposEvento.SESION_REVOCADA));
        assertThat(receptor.tipos(caso.consulta)).containsExactlyInAnyOrder(TiposEvento.REACCION_DETENIDA, TiposEvento.SESION_REVOCADA);
        assertThat(receptor.de(caso.consulta)).extracting(c -> c.getString("txn")).containsOnly(caso.idEscritura);
        gestor.sanar();
        caso.terminadaUnaVez();
        // The finished reaction's alert carries the revocation too: the same SET, stored once, not pushed again.
        await("every outcome, each one SET").atMost(Duration.ofSeconds(10)).during(Duration.ofSeconds(1))
          .until(() -> receptor.tipos(caso.consulta), t -> t.size() == 5);
        assertThat(receptor.tipos(caso.consulta)).containsExactlyInAnyOrder(TiposEvento.REACCION_DETENIDA, TiposEvento.SESION_REVOCADA,
          TiposEvento.ACCESO_INDEBIDO, TiposEvento.CUENTA_DESHABILITADA, TiposEvento.ESCRITURA_COMPENSADA);
        assertThat(receptor.de(caso.consulta)).extracting(c -> c.getString("jti")).doesNotHaveDuplicates();
      }
    }
  }

  /** One improper write (an order of a CONSULTA actor) and the people who watch its reaction. */
  private record Caso(Settings cluster, RunningApp puerta, Api api, String consulta, String area, String operador,
                      String pedido, String idEscritura) {

    /** The order is written and its write published (for claveRechazada, while no Detector runs). */
    static Caso nuevo(Settings cluster, RunningApp puerta) {
      Api api = new Api(puerta.gatewayUrl(), TestTokens.devIssuer(puerta.app().vertx()));
      String consulta = Db.newActor(cluster, "CONSULTA");
      String pedido = api.pedidoAceptado(consulta);
      String idEscritura = await("the write published").atMost(Duration.ofSeconds(10)).until(() -> Db.strings(cluster,
        "SELECT valor::json->'data'->>'id_escritura' FROM pedidos.outbox WHERE clave = ? AND enviado_en IS NOT NULL", pedido),
        l -> l.size() == 1).get(0);
      return new Caso(cluster, puerta, api, consulta, Db.newActor(cluster, "SEGURIDAD"), Db.newActor(cluster, "OPERADOR"),
        pedido, idEscritura);
    }

    /** Revoked without end, stuck before the block, the area alerted and the Bandeja given an item; nothing skipped. */
    void detenida() {
      await("the area told the reaction is stuck").atMost(Duration.ofSeconds(20))
        .until(() -> tipos(), t -> t.contains(PublicadorAlertas.REACCION_DETENIDA));
      JsonObject item = await("the Bandeja's item").atMost(Duration.ofSeconds(15))
        .until(() -> items(PublicadorAlertas.REACCION_DETENIDA), l -> l.size() == 1).get(0);
      assertThat(item.getString("type")).isEqualTo(EventTypes.REACCION_DETENIDA);
      assertThat(item.getString("motivo")).contains(idEscritura).contains("sigue revocado");
      assertThat(Db.strings(cluster, "SELECT vence_en::text FROM seguridad.lista_revocacion WHERE actor = ?", consulta))
        .as("the revocation does not expire while its reaction is unfinished").containsExactly("infinity");
      await("held: revoked, not blocked, not annulled, not notified, the write not set aside").atMost(Duration.ofSeconds(10))
        .during(Duration.ofSeconds(2)).untilAsserted(() -> {
          Http.Response lectura = Http.get(puerta.gatewayUrl() + "/v1/pedidos/" + pedido, api.token(consulta));
          assertThat(lectura.status()).isEqualTo(403);
          assertThat(lectura.body()).contains("actor_revoked");
          assertThat(pasos()).containsExactly("REVOCADA");
          assertThat(bloqueado()).isFalse();
          assertThat(anulaciones()).isZero();
          assertThat(tipos()).doesNotContain(PublicadorAlertas.ACCESO_INDEBIDO);
          assertThat(api.bandeja(operador, "ABIERTO")).noneMatch(i -> pedido.equals(i.getJsonObject("detalle").getString("clave")));
        });
    }

    /** Blocked, annulled and notified, each once; then the revocation starts its hours. */
    void terminadaUnaVez(String... otrosAvisos) {
      await("the reaction finished").atMost(Duration.ofSeconds(30)).until(this::pasos, p -> p.equals(List.of("NOTIFICADA")));
      await("the area notified").atMost(Duration.ofSeconds(10)).until(() -> tipos().contains(PublicadorAlertas.ACCESO_INDEBIDO));
      assertThat(bloqueado()).isTrue();
      assertThat(api.leerPedido(area, pedido).getString("estado")).isEqualTo("ANULADO");
      assertThat(Db.strings(cluster, "SELECT vence_en::text FROM seguridad.lista_revocacion WHERE actor = ?", consulta))
        .singleElement().isNotEqualTo("infinity");
      await("each effect once, one reaction").atMost(Duration.ofSeconds(10)).during(Duration.ofSeconds(2)).untilAsserted(() -> {
        List<String> esperados = new ArrayList<>(List.of(otrosAvisos));
        esperados.addAll(List.of(PublicadorAlertas.REACCION_DETENIDA, PublicadorAlertas.ACCESO_INDEBIDO));
        assertThat(tipos()).containsExactlyInAnyOrderElementsOf(esperados);
        assertThat(anulaciones()).isEqualTo(1);
        assertThat(Db.count(cluster, "SELECT count(*) FROM seguridad.registro_reacciones WHERE actor = ?", consulta)).isEqualTo(1);
      });
    }

    /** The Bandeja's open items about this write that say {@code tipo}. */
    List<JsonObject> items(String tipo) {
      return api.bandeja(operador, "ABIERTO").stream().map(i -> i.getJsonObject("detalle"))
        .filter(d -> idEscritura.equals(d.getString("id_escritura")) && tipo.equals(d.getString("tipo"))).toList();
    }

    List<String> tipos() {
      return api.alertas(area, consulta).stream().map(a -> a.getString("tipo")).toList();
    }

    private List<String> pasos() {
      return Db.strings(cluster, "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta);
    }

    private boolean bloqueado() {
      return Db.count(cluster, "SELECT count(*) FROM gestor.actores WHERE id = ? AND bloqueado", consulta) == 1;
    }

    /** The annulments Pedidos committed, each with its own write on escritura.realizada. */
    private long anulaciones() {
      return Db.count(cluster, "SELECT count(*) FROM pedidos.outbox WHERE clave = ? AND valor::json->'data'->>'operacion' = ?",
        pedido, EventTypes.ANULAR_PEDIDO);
    }
  }
}
