package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The Reacción's progress is persisted: a seguridad process stopped mid-reaction is finished by the next one")
class ReaccionReinicioTest {

  @Test
  @DisplayName("stopped between revoke and compensate → the reaction completes after restart, no step twice, one alert")
  void reactionResumesAfterRestart() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("reaccion.reanudar-tras-ms", 500));
    try (RunningApp puerta = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.CADENA))) {
      Api api = new Api(puerta.gatewayUrl(), TestTokens.devIssuer(puerta.app().vertx()));
      String consulta = Db.newActor(cluster, "CONSULTA");
      String area = Db.newActor(cluster, "SEGURIDAD");

      // The order is written and published while no Detector runs; then Pedidos goes away, so compensation cannot happen.
      String pedido;
      try (RunningApp pedidos = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.PEDIDOS))) {
        pedido = api.pedidoAceptado(consulta);
        await("the write published").atMost(Duration.ofSeconds(10)).until(() -> Db.count(cluster,
          "SELECT count(*) FROM pedidos.outbox WHERE clave = ? AND enviado_en IS NOT NULL", pedido), n -> n == 1);
      }

      try (RunningApp primera = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.SEGURIDAD))) {
        await("the reaction stuck before compensating").atMost(Duration.ofSeconds(15))
          .until(() -> Db.strings(cluster, "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta),
            pasos -> pasos.equals(List.of("BLOQUEADA")));
        assertThat(Db.strings(cluster, "SELECT vence_en::text FROM seguridad.lista_revocacion WHERE actor = ?", consulta))
          .as("in force without end while the reaction is unfinished").containsExactly("infinity");
      }

      try (RunningApp pedidos = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.PEDIDOS));
           RunningApp segunda = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.SEGURIDAD))) {
        await("the reaction finished after restart").atMost(Duration.ofSeconds(20))
          .until(() -> Db.strings(cluster, "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta),
            pasos -> pasos.equals(List.of("NOTIFICADA")));
        await("the alert").atMost(Duration.ofSeconds(10)).until(() -> api.alertas(area, consulta), l -> l.size() == 1);

        // Finishing starts the revocation's hours; a revoke run after it would have put the expiry back to 'infinity'.
        assertThat(Db.count(cluster, """
          SELECT count(*) FROM seguridad.lista_revocacion l JOIN seguridad.registro_reacciones r ON r.actor = l.actor
          WHERE l.actor = ? AND l.vence_en = r.terminada_en + make_interval(hours => ?)""", consulta,
          segunda.settings().integer("reaccion.revocacion-horas"))).as("the revocation's hours start when the reaction finishes")
          .isEqualTo(1);
        assertThat(api.leerPedido(area, pedido).getString("estado")).isEqualTo("ANULADO");
        await("no second alert").atMost(Duration.ofSeconds(5)).during(Duration.ofMillis(500))
          .until(() -> api.alertas(area, consulta).size(), n -> n == 1);
      }
    }
  }
}
