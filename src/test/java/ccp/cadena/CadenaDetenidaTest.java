package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
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
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("An annulled order's chain (DETENIDO) whose stage never answers is not signalled, retried nor escalated")
class CadenaDetenidaTest {

  private static final int PLAZO_MS = 1_500;
  /** Long enough for the annulment to stop the chain while its stage's retry waits, on a loaded 2-core machine. */
  private static final int ESPERA_MS = 5_000;
  private static final int PERIODO_MS = 300;
  /** The period of the Monitor's thread a test leaves out: longer than any test. */
  private static final int NUNCA_MS = 600_000;

  private static Settings cluster;
  private static RunningApp app;
  private static TestTokens tokens;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", PLAZO_MS, "reanudador.espera-ms", ESPERA_MS,
      "vigilancia.liderazgo-ms", 200));
    // Facturación does not run, so its stage never answers; the Monitor runs only where a test starts it, once the
    // chain is stopped.
    EnumSet<Role> roles = EnumSet.allOf(Role.class);
    roles.removeAll(EnumSet.of(Role.FACTURACION, Role.VIGILANCIA));
    app = RunningApp.start(cluster, roles);
    tokens = TestTokens.devIssuer(app.app().vertx());
    api = new Api(app.gatewayUrl(), tokens);
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("BarridoPlazos: the stopped order's stage, past its deadline, gets no signal through many sweeps")
  void sweepLeavesStoppedChain() throws Exception {
    String pedido = pedidoDetenido(api.pedidoAceptado(Db.newActor(cluster, "VENDEDOR")));
    await("the deadline passed").atMost(Duration.ofSeconds(10)).until(() -> Db.count(cluster,
      "SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION' AND plazo < now()",
      pedido) == 1);

    try (RunningApp monitor = monitor(PERIODO_MS, NUNCA_MS)) {
      quieta(pedido, "EN_CURSO 1", Duration.ofMillis(PLAZO_MS + 5L * PERIODO_MS));
    }
  }

  @Test
  @DisplayName("SondeoSalud: with Facturación's consumers gone, the stopped order's stage is not signalled early")
  void probeLeavesStoppedChain() throws Exception {
    String pedido = pedidoDetenido(api.pedidoAceptado(Db.newActor(cluster, "VENDEDOR")));
    await("in flight for over a second, as the probe requires").atMost(Duration.ofSeconds(10)).until(() -> Db.count(cluster,
      "SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION' "
        + "AND en_curso_desde < now() - interval '1 second'", pedido) == 1);

    try (RunningApp monitor = monitor(NUNCA_MS, PERIODO_MS)) {
      quieta(pedido, "EN_CURSO 1", Duration.ofMillis(10L * PERIODO_MS));
    }
  }

  @Test
  @DisplayName("Reanudador: a signal handled after the annulment retries nothing (a running order's signal after it does)")
  void signalAfterTheStopRetriesNothing() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = pedidoDetenido(api.pedidoAceptado(vendedor));
    String marcador = api.pedidoAceptado(vendedor);
    await("the marker's stage in flight").atMost(Duration.ofSeconds(10)).until(() -> etapa(marcador), "EN_CURSO 1"::equals);

    // Same key (vendedor), so the Reanudador handles them in this order: the marker's retry means ours was handled.
    senal(pedido, vendedor);
    senal(marcador, vendedor);
    await("the marker retried").atMost(Duration.ofSeconds(15)).until(() -> etapa(marcador), "EN_REINTENTO 2"::equals);

    assertThat(etapa(pedido)).isEqualTo("EN_CURSO 1");
  }

  @Test
  @DisplayName("Reanudador: a retry whose order is annulled during its wait is not escalated, and no Bandeja item opens")
  void retryStoppedDuringItsWaitIsNotEscalated() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    await("the stage in flight").atMost(Duration.ofSeconds(10)).until(() -> etapa(pedido), "EN_CURSO 1"::equals);
    senal(pedido, vendedor);
    await("the retry").atMost(Duration.ofSeconds(10)).until(() -> etapa(pedido), "EN_REINTENTO 2"::equals);

    pedidoDetenido(pedido);
    assertThat(etapa(pedido)).as("stopped before its wait ran out").isEqualTo("EN_REINTENTO 2");
    quieta(pedido, "EN_REINTENTO 2", Duration.ofMillis(ESPERA_MS + 1_500));
    assertThat(Topic.read(cluster, Topics.CADENA_ESCALADA, r -> pedido.equals(r.key()))).isEmpty();
  }

  @Test
  @DisplayName("Bandeja: an escalated stage whose order is annulled afterwards is not retried from the inbox (409)")
  void escalatedThenStoppedIsNotRetriedFromTheInbox() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    await("the stage in flight").atMost(Duration.ofSeconds(10)).until(() -> etapa(pedido), "EN_CURSO 1"::equals);
    senal(pedido, vendedor);
    List<String> item = await("the inbox item").atMost(Duration.ofMillis(ESPERA_MS + 15_000)).until(() -> Db.strings(cluster,
      "SELECT id::text FROM cadena.bandeja WHERE pedido = ?::uuid AND estado = 'ABIERTO'", pedido), l -> l.size() == 1);

    pedidoDetenido(pedido);
    Http.Response retry = Http.post(app.gatewayUrl() + "/v1/bandeja/" + item.get(0) + "/reintento",
      api.token(Db.newActor(cluster, "OPERADOR")), "");
    assertThat(retry.status()).as(retry.body()).isEqualTo(409);
    assertThat(etapa(pedido)).isEqualTo("ESCALADA 2");
  }

  /** The Reacción's B11, as it calls Pedidos; the Coordinador stops the chain from the annulment's event. */
  private static String pedidoDetenido(String pedido) {
    await("the stage in flight").atMost(Duration.ofSeconds(10)).until(() -> !etapa(pedido).isEmpty());
    Http.Response anulado = Http.post(app.pedidosUrl() + "/interno/pedidos/" + pedido + "/anulacion",
      TestTokens.peer(app.app().vertx(), "seguridad", "pedidos"), "{\"motivo\":\"prueba: pedido anulado\"}");
    assertThat(anulado.status()).as(anulado.body()).isEqualTo(200);
    await("the chain stopped").atMost(Duration.ofSeconds(10)).until(() -> Db.strings(cluster,
      "SELECT estado FROM cadena.cadenas WHERE pedido = ?::uuid", pedido), List.of("DETENIDO")::equals);
    return pedido;
  }

  /** The stage neither signalled, retried nor escalated, and no Bandeja item for the order, for all of {@code plazo}. */
  private static void quieta(String pedido, String etapa, Duration plazo) {
    String quieta = "0 signals, " + etapa + ", 0 inbox items";
    await("nothing happens to the stopped order's stage").during(plazo).atMost(plazo.plusSeconds(10))
      .pollInterval(Duration.ofMillis(200))
      .untilAsserted(() -> assertThat(situacion(pedido)).isEqualTo(quieta));
  }

  private static String situacion(String pedido) {
    return Db.count(cluster, "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ?::uuid", pedido) + " signals, "
      + etapa(pedido) + ", " + Db.count(cluster, "SELECT count(*) FROM cadena.bandeja WHERE pedido = ?::uuid", pedido)
      + " inbox items";
  }

  /** A process running only the Monitor, once it leads (every other test's Monitor is closed). */
  private static RunningApp monitor(int barridoMs, int sondeoMs) throws Exception {
    RunningApp monitor = RunningApp.start(SharedInfra.process(cluster,
      Map.of("vigilancia.barrido-ms", barridoMs, "vigilancia.sondeo-ms", sondeoMs)), EnumSet.of(Role.VIGILANCIA));
    await("the monitor leads").atMost(Duration.ofSeconds(10)).until(() -> lidera(monitor));
    return monitor;
  }

  private static boolean lidera(RunningApp monitor) {
    Http.Response ready = Http.get(monitor.managementUrl() + "/health/ready", null);
    return ready.json().getJsonArray("checks").stream().map(JsonObject.class::cast)
      .filter(c -> "vigilancia".equals(c.getString("id")))
      .anyMatch(c -> c.getJsonObject("data").getBoolean("lider", false));
  }

  /** The retry signal of attempt 1 on {@code cola.reintentos}, as PublicadorReintentos sends it (R4–R5). */
  private static void senal(String pedido, String vendedor) {
    JsonObject data = new JsonObject().put("pedido", pedido).put("etapa", "FACTURACION").put("intento", 1)
      .put("vendedor", vendedor).put("motivo", "PLAZO_VENCIDO").put("t_senal", Instant.now().toString());
    Topic.send(cluster, Topics.COLA_REINTENTOS, vendedor,
      Envelope.create(EventTypes.REINTENTO, "/vigilancia/barrido", pedido, data).encode());
  }

  private static String etapa(String pedido) {
    List<String> e = Db.strings(cluster,
      "SELECT estado || ' ' || intento FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION'", pedido);
    return e.isEmpty() ? "" : e.get(0);
  }
}
