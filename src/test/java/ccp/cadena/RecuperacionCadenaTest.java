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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.List;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("DG-CON-003 R1–R11: a stopped stage is signalled, retried once, then escalated (ASR-3, ASR-4), with shrunk durations")
class RecuperacionCadenaTest {

  private static final int PLAZO_MS = 1_500;
  private static final int BARRIDO_MS = 300;
  /** Long enough for a stage process started during the wait to join its group on a loaded 2-core machine. */
  private static final int ESPERA_MS = 8_000;

  private static Settings cluster;
  private static RunningApp app;
  private static Api api;
  private static String operador;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", PLAZO_MS, "vigilancia.barrido-ms", BARRIDO_MS,
      "vigilancia.liderazgo-ms", 200, "reanudador.espera-ms", ESPERA_MS));
    // Facturación does not run: its stage stops on every order until a test starts it.
    EnumSet<Role> roles = EnumSet.allOf(Role.class);
    roles.remove(Role.FACTURACION);
    app = RunningApp.start(cluster, roles);
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
    operador = Db.newActor(cluster, "OPERADOR");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("stopped → one signal within deadline + sweep, retried, escalated once after the wait; back later → late completion")
  void stoppedStageIsRetriedThenEscalatedThenCompletesLate() throws Exception {
    String pedido = pedir();

    await("the retry").atMost(Duration.ofSeconds(10)).until(() -> etapa(pedido), e -> e.equals("EN_REINTENTO 2"));
    assertThat(Db.count(cluster, "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ?::uuid AND publicada_en IS NOT NULL", pedido))
      .isEqualTo(1);
    Duration signalled = entre(pedido, "c.iniciada_en", "s.publicada_en");
    assertThat(signalled).isLessThan(Duration.ofMillis(PLAZO_MS + BARRIDO_MS + 2_000));

    await("the escalation").atMost(Duration.ofSeconds(15)).until(() -> etapa(pedido), "ESCALADA 2"::equals);
    await("cadena.escalada").atMost(Duration.ofSeconds(10))
      .until(() -> Topic.read(cluster, Topics.CADENA_ESCALADA, r -> pedido.equals(r.key())).size(), n -> n >= 1);
    await("the inbox item").atMost(Duration.ofSeconds(10)).until(() -> itemsDe(pedido, "ABIERTO").size(), n -> n == 1);
    await("one escalation, one signal, one open item").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(15))
      .pollInterval(Duration.ofMillis(250))
      .until(() -> Topic.read(cluster, Topics.CADENA_ESCALADA, r -> pedido.equals(r.key())).size() == 1
        && Db.count(cluster, "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ?::uuid", pedido) == 1
        && itemsDe(pedido, "ABIERTO").size() == 1);

    try (RunningApp facturacion = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.FACTURACION))) {
      await("the chain completed after the late confirmation").atMost(Duration.ofSeconds(20)).until(() -> estado(pedido), "LISTO"::equals);
      assertThat(Db.count(cluster, "SELECT count(*) FROM facturacion.facturas WHERE pedido = ?::uuid", pedido)).isEqualTo(1);
      JsonObject cerrado = await("the item closed").atMost(Duration.ofSeconds(10))
        .until(() -> itemsDe(pedido, "CERRADO"), l -> l.size() == 1).get(0);
      assertThat(cerrado.getString("cierre")).isEqualTo("confirmación tardía");
      assertThat(itemsDe(pedido, "ABIERTO")).isEmpty();
    }
  }

  @Test
  @DisplayName("the person responsible retries an escalated stage from the Bandeja; with the stage back, the chain completes")
  void operatorRetriesFromTheInbox() throws Exception {
    String pedido = pedir();
    JsonObject item = await("the inbox item").atMost(Duration.ofSeconds(20)).until(() -> itemsDe(pedido, "ABIERTO"), l -> l.size() == 1).get(0);
    assertThat(Http.post(app.gatewayUrl() + "/v1/bandeja/" + item.getString("id") + "/reintento", api.token(Db.newActor(cluster, "VENDEDOR")), "")
      .status()).isEqualTo(403);

    try (RunningApp facturacion = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.FACTURACION))) {
      // The stage may confirm its late commands first: then the retry is refused and the item closes by itself.
      Http.Response retry = Http.post(app.gatewayUrl() + "/v1/bandeja/" + item.getString("id") + "/reintento", api.token(operador), "");
      assertThat(retry.status()).as(retry.body()).isIn(202, 409);
      await("the chain completed").atMost(Duration.ofSeconds(20)).until(() -> estado(pedido), "LISTO"::equals);
      assertThat(Db.count(cluster, "SELECT count(*) FROM facturacion.facturas WHERE pedido = ?::uuid", pedido)).isEqualTo(1);
      assertThat(itemsDe(pedido, "ABIERTO")).isEmpty();
    }
  }

  @Test
  @DisplayName("a poison command goes to cola.fallidos and becomes an inbox item; the stage keeps consuming")
  void poisonCommandBecomesInboxItem() {
    String marca = "veneno-" + java.util.UUID.randomUUID();
    Topic.send(cluster, Topics.ETAPA_EJECUTAR, marca, "{\"no\": \"es un comando\", \"marca\": \"" + marca + "\"}");
    JsonObject item = await("the dead letter in the inbox").atMost(Duration.ofSeconds(15)).until(
      () -> api.bandeja(operador, "ABIERTO").stream().filter(i -> i.getJsonObject("detalle").getString("valor", "").contains(marca)).toList(),
      l -> !l.isEmpty()).get(0);
    assertThat(item.getString("tipo")).isEqualTo("FALLIDO");
    assertThat(item.getJsonObject("detalle").getString("motivo")).contains("specversion");
    assertThat(Http.post(app.gatewayUrl() + "/v1/bandeja/" + item.getString("id") + "/cierre", api.token(operador),
      "{\"motivo\":\"revisado\"}").status()).isEqualTo(200);
    assertThat(api.bandeja(operador, "CERRADO")).anyMatch(i -> i.getString("id").equals(item.getString("id")));
  }

  @Test
  @DisplayName("a poison command redelivered to its group (rewound as a crash before the commit leaves it) is dead-lettered again, yet one inbox item")
  void redeliveredPoisonIsOneInboxItem() throws Exception {
    String marca = "veneno-" + java.util.UUID.randomUUID();
    String grupo = Etapa.FACTURACION.cola();
    try (RunningApp facturacion = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.FACTURACION))) {
      Topic.send(cluster, Topics.ETAPA_EJECUTAR, marca, "{\"no\": \"es un comando\", \"marca\": \"" + marca + "\"}");
      await("the dead letter in the inbox").atMost(Duration.ofSeconds(20)).until(() -> itemsFallidos(marca, grupo) == 1);
    }
    JsonObject veneno = cartasMuertas(marca, grupo).get(0).data();
    rebobinar(grupo, new TopicPartition(veneno.getString("topic"), veneno.getInteger("partition")), veneno.getLong("offset"));

    try (RunningApp facturacion = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.FACTURACION))) {
      await("dead-lettered again").atMost(Duration.ofSeconds(30)).until(() -> cartasMuertas(marca, grupo).size() == 2);
      await("still one inbox item").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(250)).until(() -> itemsFallidos(marca, grupo) == 1);
    }
  }

  private static List<Envelope> cartasMuertas(String marca, String grupo) {
    return Topic.read(cluster, Topics.COLA_FALLIDOS, r -> r.value().contains(marca)).stream()
      .map(r -> Envelope.parse(r.value())).filter(letter -> grupo.equals(letter.data().getString("grupo"))).toList();
  }

  private static long itemsFallidos(String marca, String grupo) {
    return Db.count(cluster, "SELECT count(*) FROM cadena.bandeja WHERE tipo = 'FALLIDO' AND detalle->>'grupo' = ? "
      + "AND strpos(detalle->>'valor', ?) > 0", grupo, marca);
  }

  /** Moves the (stopped, so empty) group's committed offset back to {@code offset}, as if its commit had never happened. */
  private static void rebobinar(String grupo, TopicPartition partition, long offset) {
    try (Admin admin = Admin.create(new HashMap<>(Topic.admin(cluster)))) {
      // The group is empty only once the broker has seen the stopped member leave.
      await("the group rewound").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
        admin.alterConsumerGroupOffsets(grupo, Map.of(partition, new OffsetAndMetadata(offset))).all().get();
        return true;
      });
    }
  }

  @Test
  @DisplayName("a confirmation with an unknown resultado goes to cola.fallidos with its reason, not retried for ever")
  void unknownResultadoIsPoison() {
    String pedido = java.util.UUID.randomUUID().toString();
    JsonObject data = new JsonObject().put("pedido", pedido).put("etapa", "FACTURACION").put("intento", 1)
      .put("resultado", "QUIZAS").put("motivo", "prueba");
    Topic.send(cluster, Topics.ETAPA_COMPLETADA, pedido,
      Envelope.create(EventTypes.ETAPA_COMPLETADA, "/etapas/facturacion", pedido, data).encode());
    JsonObject item = await("the dead letter in the inbox").atMost(Duration.ofSeconds(15)).until(
      () -> api.bandeja(operador, "ABIERTO").stream().filter(i -> i.getJsonObject("detalle").getString("valor", "").contains(pedido)).toList(),
      l -> !l.isEmpty()).get(0);
    assertThat(item.getJsonObject("detalle").getString("motivo")).contains("unknown resultado QUIZAS");
    assertThat(item.getJsonObject("detalle").getString("grupo")).isEqualTo("cola.coordinador");
  }

  private static List<JsonObject> itemsDe(String pedido, String estado) {
    return api.bandeja(operador, estado).stream().filter(i -> pedido.equals(i.getString("pedido"))).toList();
  }

  @Test
  @DisplayName("the stage back during the retry: it completes without escalation")
  void stageBackDuringRetryCompletes() throws Exception {
    String pedido = pedir();
    await("the retry").atMost(Duration.ofSeconds(10)).until(() -> etapa(pedido), e -> e.equals("EN_REINTENTO 2"));
    try (RunningApp facturacion = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.FACTURACION))) {
      await("the chain completed").atMost(Duration.ofSeconds(20)).until(() -> estado(pedido), "LISTO"::equals);
      assertThat(Topic.read(cluster, Topics.CADENA_ESCALADA, r -> pedido.equals(r.key()))).isEmpty();
      assertThat(Db.strings(cluster, "SELECT estado FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION'", pedido))
        .containsExactly("COMPLETADA");
    }
  }

  private static String pedir() {
    Http.Response r = api.crearPedido(Db.newActor(cluster, "VENDEDOR"), Api.pedido("T-1", "P-3", 1));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().getString("pedido");
  }

  private static String etapa(String pedido) {
    List<String> e = Db.strings(cluster, "SELECT estado || ' ' || intento FROM cadena.cadena_etapa WHERE pedido = ?::uuid AND etapa = 'FACTURACION'", pedido);
    return e.isEmpty() ? "" : e.get(0);
  }

  private static String estado(String pedido) {
    List<String> e = Db.strings(cluster, "SELECT estado FROM cadena.cadenas WHERE pedido = ?::uuid", pedido);
    return e.isEmpty() ? "" : e.get(0);
  }

  private static Duration entre(String pedido, String desde, String hasta) {
    String sql = "SELECT to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') || ' ' || "
      + "to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM cadena.cadenas c "
      + "JOIN cadena.registro_senales s ON s.pedido = c.pedido WHERE c.pedido = ?::uuid";
    String[] both = Db.strings(cluster, String.format(sql, desde, hasta), pedido).get(0).split(" ");
    return Duration.between(OffsetDateTime.parse(both[0]), OffsetDateTime.parse(both[1]));
  }
}
