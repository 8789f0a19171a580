package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Seguridad is 1 active + 1 standby as a whole: one process runs its threads, and a stalled reaction is resumed by one")
class LiderazgoSeguridadTest {

  private static final Logger LOG = LoggerFactory.getLogger(LiderazgoSeguridadTest.class);
  /** Every consumer group of the role: the standby is in none of them. */
  private static final List<String> GRUPOS = List.of(ConsumidorSesiones.COLA, ConsumidorEscrituras.COLA, ConsumidorAlertas.COLA);
  private static final int LIDERAZGO_MS = 200;

  /**
   * The block's call is held unanswered for longer than a reaction may stay quiet before the sweep resumes it: a
   * second process sweeping too (before this change, each process swept) would start the same step beside the first.
   */
  @Test
  @DisplayName("two processes: the stalled reaction's step runs in one at a time, and after the active one stops the standby takes it over and finishes it once")
  void unaReanudacion() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("reaccion.reanudar-tras-ms", 300, "seguridad.liderazgo-ms", LIDERAZGO_MS));
    try (RunningApp puerta = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.PEDIDOS, Role.CADENA));
         PeerAveriado gestor = PeerAveriado.delante(puerta.app().vertx(), cluster.text("gestor.url"), "/bloqueo",
           PeerAveriado.Modo.MUDO)) {
      Api api = new Api(puerta.gatewayUrl(), TestTokens.devIssuer(puerta.app().vertx()));
      String consulta = Db.newActor(cluster, "CONSULTA");
      String pedido = api.pedidoAceptado(consulta);
      String idEscritura = await("the write published").atMost(Duration.ofSeconds(10)).until(() -> Db.strings(cluster,
        "SELECT valor::json->'data'->>'id_escritura' FROM pedidos.outbox WHERE clave = ? AND enviado_en IS NOT NULL", pedido),
        l -> l.size() == 1).get(0);
      // Its runner died an hour ago: only a sweep can take it up again.
      Db.update(cluster, """
        INSERT INTO seguridad.registro_reacciones (id_escritura, actor, servicio, pedido, t_det, paso, actualizada_en)
        VALUES (?::uuid, ?, 'pedidos', ?, now(), 'ABIERTA', now() - interval '1 hour')""", idEscritura, consulta, pedido);

      try (RunningApp primero = RunningApp.start(seguridad(cluster, gestor), Set.of(Role.SEGURIDAD));
           RunningApp segundo = RunningApp.start(seguridad(cluster, gestor), Set.of(Role.SEGURIDAD))) {
        RunningApp activo = await("one process active, the other a ready standby in no consumer group")
          .atMost(Duration.ofSeconds(20)).until(() -> activo(primero, segundo), Objects::nonNull);
        RunningApp standby = activo == primero ? segundo : primero;

        await("the block tried again and again").atMost(Duration.ofSeconds(20)).until(gestor::averiadas, n -> n >= 4);
        assertThat(gestor.maxEnVuelo()).as("block calls in flight at once").isEqualTo(1);
        assertThat(pasos(cluster, consulta)).containsExactly("REVOCADA");

        long parado = System.nanoTime();
        int antes = gestor.averiadas();
        activo.close();
        await("the standby leads").atMost(Duration.ofSeconds(10)).until(() -> lider(standby));
        long lidera = System.nanoTime();
        await("the standby resumes the reaction").atMost(Duration.ofSeconds(10)).until(gestor::averiadas, n -> n > antes);
        long reanuda = System.nanoTime();
        LOG.info("Seguridad takeover: leading {} ms, the stalled reaction's step tried again {} ms after the active one stopped",
          (lidera - parado) / 1_000_000, (reanuda - parado) / 1_000_000);
        assertThat(Duration.ofNanos(lidera - parado)).as("takeover").isLessThan(Duration.ofSeconds(5));
        await("its consumers in every group").atMost(Duration.ofSeconds(20))
          .until(() -> grupos(standby), g -> g.containsAll(GRUPOS));

        gestor.sanar();
        await("the reaction finished").atMost(Duration.ofSeconds(30)).until(() -> pasos(cluster, consulta),
          p -> p.equals(List.of("NOTIFICADA")));
        assertThat(gestor.maxEnVuelo()).as("block calls in flight at once, across the takeover").isEqualTo(1);
        assertThat(Db.count(cluster, "SELECT count(*) FROM gestor.actores WHERE id = ? AND bloqueado", consulta)).isEqualTo(1);
      }
    }
  }

  /** A seguridad process of the cluster on its own port, whose block calls the held Gestor answers after 1.5 s at best. */
  private static Settings seguridad(Settings cluster, PeerAveriado gestor) {
    return SharedInfra.process(cluster, Map.of("seguridad.port", SharedInfra.freePort(), "gestor.url", gestor.url(),
      "http.client-timeout-ms", 1_500));
  }

  /** The process that leads, when the other is a ready standby that runs none of the group's consumers; else null. */
  private static RunningApp activo(RunningApp a, RunningApp b) {
    if (lider(a) && !lider(b) && listo(b) && grupos(b).isEmpty() && grupos(a).containsAll(GRUPOS)) return a;
    if (lider(b) && !lider(a) && listo(a) && grupos(a).isEmpty() && grupos(b).containsAll(GRUPOS)) return b;
    return null;
  }

  private static boolean listo(RunningApp app) {
    return Http.get(app.managementUrl() + "/health/ready", null).status() == 200;
  }

  private static boolean lider(RunningApp app) {
    return checks(app).stream().anyMatch(c -> "seguridad".equals(c.getString("id"))
      && c.getJsonObject("data") != null && c.getJsonObject("data").getBoolean("lider", false));
  }

  /** The consumer groups the process is in, from its readiness. */
  private static List<String> grupos(RunningApp app) {
    return checks(app).stream().map(c -> c.getString("id")).filter(GRUPOS::contains).toList();
  }

  private static List<JsonObject> checks(RunningApp app) {
    Http.Response ready = Http.get(app.managementUrl() + "/health/ready", null);
    JsonObject body = ready.json();
    if (body == null || body.getJsonArray("checks") == null) return List.of();
    return body.getJsonArray("checks").stream().map(JsonObject.class::cast).toList();
  }

  private static List<String> pasos(Settings cluster, String actor) {
    return Db.strings(cluster, "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", actor);
  }
}
