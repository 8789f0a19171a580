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

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("SondeoSalud: a stage with no live consumer has its stages in flight signalled before their deadline")
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
}
