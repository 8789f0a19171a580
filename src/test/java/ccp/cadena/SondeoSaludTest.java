package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("SondeoSalud: a stage with no live consumer, or alive but hung, has its stages in flight signalled before their deadline")
class SondeoSaludTest {

  @Test
  @DisplayName("Facturación down, deadline 60 s: the stage is signalled within seconds, once")
  void probeSignalsEarly() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", 60_000, "vigilancia.barrido-ms", 300,
      "vigilancia.sondeo-ms", 300, "vigilancia.liderazgo-ms", 200, "reanudador.espera-ms", 60_000));
    EnumSet<Role> roles = EnumSet.allOf(Role.class);
    roles.remove(Role.FACTURACION);
    try (RunningApp app = RunningApp.start(cluster, roles)) {
      Api api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
      Http.Response r = api.crearPedido(Db.newActor(cluster, "VENDEDOR"), Api.pedido("T-1", "P-6", 1));
      assertThat(r.status()).isEqualTo(201);
      String pedido = r.json().getString("pedido");

      // The wait is generous (a loaded machine); how early the signal came is measured on the database's clock.
      await("the early signal").atMost(Duration.ofSeconds(30)).until(() -> Db.strings(cluster,
        "SELECT motivo FROM cadena.registro_senales WHERE pedido = ?::uuid AND publicada_en IS NOT NULL", pedido),
        l -> !l.isEmpty());
      long senaladaTrasMs = Db.count(cluster, "SELECT (extract(epoch FROM s.senalada_en - c.iniciada_en) * 1000)::bigint"
        + " FROM cadena.cadenas c JOIN cadena.registro_senales s ON s.pedido = c.pedido WHERE c.pedido = ?::uuid", pedido);
      assertThat(senaladaTrasMs).isLessThan(10_000);
      await("the retry").atMost(Duration.ofSeconds(10)).until(() -> Db.strings(cluster,
          "SELECT estado FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION'", pedido),
        List.of("EN_REINTENTO")::equals);
      await("still one signal").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10))
        .until(() -> Db.strings(cluster, "SELECT motivo FROM cadena.registro_senales WHERE pedido = ?::uuid", pedido),
          List.of("SONDEO_SIN_RESPUESTA")::equals);
    }
  }

  /**
   * Facturación runs and keeps its consumer in the group, but its effect is stuck behind a lock the test holds on its
   * tables (a stage alive but hung). Asked for its health, it answers that its consumer holds a record and has finished
   * none for longer than the bound (2 s): its stage in flight is signalled long before its 25 s deadline.
   */
  @Test
  @DisplayName("Facturación alive but hung (its tables locked), deadline 25 s: signalled early by its health probe, measured")
  void hungStageSignalledEarly() throws Exception {
    Settings base = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", 25_000, "vigilancia.barrido-ms", 300,
      "vigilancia.sondeo-ms", 300, "vigilancia.sondeo-plazo-ms", 2_000, "vigilancia.liderazgo-ms", 200,
      "reanudador.espera-ms", 60_000));
    Settings cluster = base.with(Map.of("vigilancia.sondeo.facturacion-urls", "http://127.0.0.1:" + base.integer("management.port")));
    try (RunningApp app = RunningApp.start(cluster, EnumSet.allOf(Role.class));
         Connection bloqueo = Db.superuser(cluster)) {
      Api api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
      bloqueo.setAutoCommit(false);
      try (Statement lock = bloqueo.createStatement()) {
        lock.execute("LOCK TABLE facturacion.etapa_procesada, facturacion.facturas IN ACCESS EXCLUSIVE MODE");
      }
      try {
        Http.Response r = api.crearPedido(Db.newActor(cluster, "VENDEDOR"), Api.pedido("T-1", "P-7", 1));
        assertThat(r.status()).isEqualTo(201);
        String pedido = r.json().getString("pedido");

        await("the early signal").atMost(Duration.ofSeconds(20)).until(() -> Db.strings(cluster,
          "SELECT motivo FROM cadena.registro_senales WHERE pedido = ?::uuid AND publicada_en IS NOT NULL", pedido), l -> !l.isEmpty());
        long asr3Ms = Db.count(cluster, "SELECT (extract(epoch FROM s.publicada_en - e.en_curso_desde) * 1000)::bigint"
          + " FROM cadena.cadena_etapa e JOIN cadena.registro_senales s ON s.pedido = e.pedido AND s.etapa = e.etapa"
          + " WHERE e.pedido = ?::uuid AND e.etapa = 'FACTURACION'", pedido);
        System.out.printf("hung Facturación: ASR-3 (stage started → signal published) %d ms (deadline 25000 ms, probe bound 2000 ms)%n", asr3Ms);
        assertThat(Db.strings(cluster, "SELECT motivo FROM cadena.registro_senales WHERE pedido = ?::uuid", pedido))
          .containsExactly("SONDEO_SIN_RESPUESTA");
        assertThat(asr3Ms).as("signalled early, not at the 25 s deadline").isLessThan(15_000);
      } finally {
        bloqueo.rollback();
      }
    }
  }
}
