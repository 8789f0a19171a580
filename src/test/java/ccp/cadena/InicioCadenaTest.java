package ccp.cadena;

import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@DisplayName("DG-CON-003 steps 1–5: an order's committed write starts its chain")
class InicioCadenaTest {

  private static RunningApp app;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    // No stage runs here: the chain must stay at its first stage, as just started.
    app = RunningApp.start(SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", 25_000)),
      EnumSet.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS, Role.CADENA));
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("the stage rows are written, Facturación EN_CURSO with a 25 s deadline, and it gets one command with the lines")
  void chainStarts() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);

    List<String> etapas = await("the stage rows").atMost(Duration.ofSeconds(10)).until(() -> estados(pedido), l -> l.size() == 3);
    assertThat(etapas).containsExactly("FACTURACION EN_CURSO 1", "INVENTARIO PENDIENTE 0", "DESPACHO PENDIENTE 0");
    OffsetDateTime plazo = OffsetDateTime.parse(Db.strings(app.settings(),
      "SELECT to_char(plazo AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION'",
      pedido).get(0));
    OffsetDateTime iniciada = OffsetDateTime.parse(Db.strings(app.settings(),
      "SELECT to_char(iniciada_en AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM cadena.cadenas WHERE pedido = ?::uuid", pedido).get(0));
    assertThat(Duration.between(iniciada, plazo).toMillis()).isCloseTo(25_000L, within(1_000L));

    var comandos = await("the command").atMost(Duration.ofSeconds(10))
      .until(() -> Topic.read(app.settings(), Topics.ETAPA_EJECUTAR, r -> pedido.equals(r.key())), l -> !l.isEmpty());
    JsonObject data = new JsonObject(comandos.get(0).value()).getJsonObject("data");
    assertThat(comandos).hasSize(1);
    assertThat(data.getString("etapa")).isEqualTo("FACTURACION");
    assertThat(data.getInteger("intento")).isEqualTo(1);
    assertThat(data.getJsonArray("lineas").getJsonObject(0).getString("producto")).isEqualTo("P-1");
  }

  @Test
  @DisplayName("the same write delivered again leaves one chain; its stage in flight is commanded again, harmlessly")
  void redeliveredWriteKeepsOneChain() {
    String vendedor = Db.newActor(app.settings(), "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    String escritura = await("the write").atMost(Duration.ofSeconds(10)).until(
      () -> Topic.read(app.settings(), Topics.ESCRITURA_REALIZADA, r -> pedido.equals(r.key())), l -> !l.isEmpty())
      .get(0).value();
    await("the stage rows").atMost(Duration.ofSeconds(10)).until(() -> estados(pedido), l -> l.size() == 3);

    Topic.send(app.settings(), Topics.ESCRITURA_REALIZADA, pedido, escritura);
    var comandos = await("the command sent again").atMost(Duration.ofSeconds(10))
      .until(() -> Topic.read(app.settings(), Topics.ETAPA_EJECUTAR, r -> pedido.equals(r.key())), l -> l.size() == 2);
    assertThat(comandos).extracting(r -> new JsonObject(r.value()).getJsonObject("data").getString("etapa") + "/"
      + new JsonObject(r.value()).getJsonObject("data").getInteger("intento")).containsOnly("FACTURACION/1");
    assertThat(estados(pedido)).containsExactly("FACTURACION EN_CURSO 1", "INVENTARIO PENDIENTE 0", "DESPACHO PENDIENTE 0");
    assertThat(Db.count(app.settings(), "SELECT count(*) FROM cadena.cadenas WHERE pedido = ?::uuid", pedido)).isEqualTo(1);
  }

  private static List<String> estados(String pedido) {
    return Db.strings(app.settings(),
      "SELECT etapa || ' ' || estado || ' ' || intento FROM cadena.cadena_etapa WHERE pedido = ?::uuid ORDER BY orden", pedido);
  }
}
