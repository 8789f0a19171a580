package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Topics;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Monitor de la cadena, 1 leader + 1 standby: the standby takes over the sweep, and nothing is signalled twice")
class VigilanciaRelevoTest {

  @Test
  @DisplayName("the leader stops → the standby leads within the leadership period and signals the stopped stage once")
  void standbyTakesOver() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", 2_000, "vigilancia.barrido-ms", 300,
      "vigilancia.liderazgo-ms", 200, "reanudador.espera-ms", 60_000));
    EnumSet<Role> servicios = EnumSet.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS, Role.CADENA);
    // Every process is closed on the way out, whichever led; closing the stopped leader again does nothing.
    try (RunningApp app = RunningApp.start(cluster, servicios);
         RunningApp uno = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.VIGILANCIA));
         RunningApp dos = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.VIGILANCIA))) {
      await("a leader").atMost(Duration.ofSeconds(10)).until(() -> lidera(uno) || lidera(dos), l -> l);
      RunningApp lider = lidera(uno) ? uno : dos;
      RunningApp standby = lider == uno ? dos : uno;
      assertThat(lidera(standby)).isFalse();

      Api api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
      Http.Response r = api.crearPedido(Db.newActor(cluster, "VENDEDOR"), Api.pedido("T-1", "P-4", 1));
      assertThat(r.status()).isEqualTo(201);
      String pedido = r.json().getString("pedido");

      long stopped = System.nanoTime();
      lider.close();
      await("the standby's leadership").atMost(Duration.ofSeconds(10)).until(() -> lidera(standby), l -> l);
      long takeoverMs = (System.nanoTime() - stopped) / 1_000_000;
      System.out.printf("monitor takeover after the leader stopped: %d ms%n", takeoverMs);
      assertThat(takeoverMs).isLessThan(5_000);

      await("the signal").atMost(Duration.ofSeconds(15)).until(() -> Db.count(cluster,
        "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ?::uuid AND publicada_en IS NOT NULL", pedido), n -> n == 1);
      await("one signal, published once").during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> Db.count(cluster, "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ?::uuid", pedido) == 1
          && Topic.read(cluster, Topics.COLA_REINTENTOS, rec -> rec.value().contains(pedido)).size() == 1);
    }
  }

  private static boolean lidera(RunningApp app) {
    Http.Response ready = Http.get(app.managementUrl() + "/health/ready", null);
    return ready.json().getJsonArray("checks").stream().map(JsonObject.class::cast)
      .filter(c -> "vigilancia".equals(c.getString("id")))
      .anyMatch(c -> c.getJsonObject("data").getBoolean("lider", false));
  }
}
