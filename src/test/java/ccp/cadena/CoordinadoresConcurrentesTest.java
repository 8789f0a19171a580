package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Coordinador, the Reanudador and the Bandeja run in every {@code cadena} process (P active instances, not the
 * view's [1]): each transition of the chain is one conditional statement, so two of them handling the same
 * confirmation, or scanning the same retries, never move a chain twice.
 */
@DisplayName("P coordinators: the same confirmations and the same expired retries at once never move a chain twice")
class CoordinadoresConcurrentesTest {

  private static final Logger LOG = LoggerFactory.getLogger(CoordinadoresConcurrentesTest.class);
  private static final long PLAZO_MS = 25_000;
  private static final int CADENAS = 300;
  private static final int LOTE = 32;

  private static Settings settings;
  private static Vertx vertx;
  /** Two coordinators' repositories, each on its own connections. */
  private static RepositorioCadena uno;
  private static RepositorioCadena dos;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    Migrations.migrate(PgConfig.of(settings, "cadena"), settings.flag("demo.seed"), List.of("cadena"));
    vertx = Vertx.vertx();
    uno = new RepositorioCadena(PgClients.pipelined(vertx, PgConfig.of(settings, "cadena")));
    dos = new RepositorioCadena(PgClients.pipelined(vertx, PgConfig.of(settings, "cadena")));
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  /**
   * Each coordinator gets every confirmation, in its own order and batches (as a rebalance can hand a partition's
   * uncommitted records to a second one while the first still works on them). A batch that fails (two batches locking
   * the same rows in opposite orders may deadlock, and PostgreSQL aborts one) is retried, as its consumer would.
   */
  @Test
  @DisplayName("two coordinators confirming every stage of 300 chains at once: each step answered to exactly one, each chain LISTO once, every attempt 1")
  void mismasConfirmaciones() {
    List<UUID> pedidos = iniciar(CADENAS);
    AtomicInteger reintentados = new AtomicInteger();
    for (Etapa etapa : Etapa.values()) {
      List<RepositorioCadena.Confirmacion> confirmaciones = pedidos.stream()
        .map(p -> new RepositorioCadena.Confirmacion(p, etapa, etapa.siguiente())).toList();
      List<Future<Map<UUID, RepositorioCadena.Avance>>> deUno = new ArrayList<>();
      List<Future<Map<UUID, RepositorioCadena.Avance>>> deDos = new ArrayList<>();
      List<List<RepositorioCadena.Confirmacion>> lotesUno = lotes(confirmaciones, 1);
      List<List<RepositorioCadena.Confirmacion>> lotesDos = lotes(confirmaciones, 2);
      for (int i = 0; i < lotesUno.size(); i++) {
        List<RepositorioCadena.Confirmacion> deEste = lotesUno.get(i);
        List<RepositorioCadena.Confirmacion> deAquel = lotesDos.get(i);
        deUno.add(conReintento(() -> uno.avanzar(deEste, PLAZO_MS), 5, reintentados));
        deDos.add(conReintento(() -> dos.avanzar(deAquel, PLAZO_MS), 5, reintentados));
      }
      Set<UUID> movidasPorUno = movidas(deUno);
      Set<UUID> movidasPorDos = movidas(deDos);

      Set<UUID> porAmbos = new HashSet<>(movidasPorUno);
      porAmbos.retainAll(movidasPorDos);
      assertThat(porAmbos).as(etapa + ": moved by both").isEmpty();
      LOG.info("{}: {} chains moved by the first coordinator, {} by the second", etapa, movidasPorUno.size(), movidasPorDos.size());
      Set<UUID> todas = new HashSet<>(movidasPorUno);
      todas.addAll(movidasPorDos);
      assertThat(todas).as(etapa + ": every chain moved once").containsExactlyInAnyOrderElementsOf(pedidos);
    }
    LOG.info("Two coordinators, {} chains: {} batches retried after an abort", CADENAS, reintentados.get());
    assertThat(Db.count(settings, "SELECT count(*) FROM cadena.cadenas WHERE pedido = ANY (?) AND estado = 'LISTO'",
      (Object) pedidos.toArray(UUID[]::new))).isEqualTo(CADENAS);
    assertThat(Db.count(settings, """
      SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ANY (?) AND estado = 'COMPLETADA' AND intento = 1""",
      (Object) pedidos.toArray(UUID[]::new))).isEqualTo(3L * CADENAS);
  }

  @Test
  @DisplayName("two Reanudadores scanning the same 300 expired retries at once: each escalated by exactly one")
  void mismasEscaladas() {
    List<UUID> pedidos = iniciar(CADENAS);
    vencerReintentos(pedidos);
    Map<UUID, Integer> veces = new HashMap<>();
    for (int ronda = 0; ronda < 20 && !veces.keySet().containsAll(pedidos); ronda++) {
      List<List<RepositorioCadena.Escalada>> ambas = Future.all(uno.escalarVencidas(), dos.escalarVencidas())
        .map(all -> List.<List<RepositorioCadena.Escalada>>of(all.resultAt(0), all.resultAt(1))).await();
      ambas.forEach(escaladas -> escaladas.forEach(e -> veces.merge(e.pedido(), 1, Integer::sum)));
    }
    assertThat(pedidos).allSatisfy(p -> assertThat(veces.get(p)).as("escalations of " + p).isEqualTo(1));
    assertThat(Db.count(settings, "SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ANY (?) AND estado = 'ESCALADA'",
      (Object) pedidos.toArray(UUID[]::new))).isEqualTo(CADENAS);
  }

  /**
   * Through the broker: two cadena processes share the partitions of {@code etapa.completada}. Every confirmation is
   * published twice, under its order's key and under another one, so the two copies usually land on partitions of
   * different processes and are handled at once by both. Then the same processes' Reanudadores race on expired
   * retries.
   */
  @Test
  @DisplayName("two cadena processes, every confirmation twice on different partitions: each chain finished once; expired retries each escalated once, one Bandeja item")
  void dosProcesos() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("reanudador.espera-ms", 200));
    try (RunningApp primero = RunningApp.start(cadena(cluster), EnumSet.of(Role.CADENA));
         RunningApp segundo = RunningApp.start(cadena(cluster), EnumSet.of(Role.CADENA))) {
      await("both coordinators own partitions").atMost(Duration.ofSeconds(30))
        .until(() -> particiones(primero) > 0 && particiones(segundo) > 0);
      List<UUID> pedidos = iniciar(100);
      Map<String, Object> config = new HashMap<>(Topic.as(cluster, Role.FACTURACION));
      try (KafkaProducer<String, String> etapas = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
        for (Etapa etapa : Etapa.values()) {
          for (UUID pedido : pedidos) {
            String confirmacion = Envelope.create(EventTypes.ETAPA_COMPLETADA, "/test", pedido.toString(), new JsonObject()
              .put("pedido", pedido.toString()).put("etapa", etapa.name()).put("intento", 1)
              .put("resultado", ResultadoEtapa.COMPLETADA.name())).encode();
            etapas.send(new ProducerRecord<>(Topics.ETAPA_COMPLETADA, pedido.toString(), confirmacion));
            etapas.send(new ProducerRecord<>(Topics.ETAPA_COMPLETADA, "copia-" + pedido, confirmacion));
          }
          etapas.flush();
          await(etapa + " recorded for every chain").atMost(Duration.ofSeconds(60)).until(() -> Db.count(cluster,
            "SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ANY (?) AND etapa = ? AND estado = 'COMPLETADA'",
            pedidos.toArray(UUID[]::new), etapa.name()), n -> n == pedidos.size());
        }
      }
      await("each chain's end counted once, by one of the two").atMost(Duration.ofSeconds(20)).during(Duration.ofSeconds(1))
        .until(() -> completas(primero) + completas(segundo), n -> n == pedidos.size());
      LOG.info("Chains finished by each process: {} and {}", completas(primero), completas(segundo));
      assertThat(Db.count(cluster, """
        SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ANY (?) AND estado = 'COMPLETADA' AND intento = 1""",
        (Object) pedidos.toArray(UUID[]::new))).isEqualTo(3L * pedidos.size());

      List<UUID> reintentos = iniciar(100);
      vencerReintentos(reintentos);
      await("every expired retry escalated and filed").atMost(Duration.ofSeconds(30)).until(() -> Db.count(cluster,
        "SELECT count(*) FROM cadena.bandeja WHERE tipo = 'ESCALADA' AND pedido = ANY (?)",
        (Object) reintentos.toArray(UUID[]::new)), n -> n >= reintentos.size());
      Set<String> claves = reintentos.stream().map(UUID::toString).collect(Collectors.toSet());
      Map<String, Set<String>> eventos = Topic.read(cluster, Topics.CADENA_ESCALADA, r -> claves.contains(r.key())).stream()
        .collect(Collectors.groupingBy(ConsumerRecord::key,
          Collectors.mapping(r -> new JsonObject(r.value()).getString("id"), Collectors.toSet())));
      assertThat(eventos).as("one escalation per stage").hasSize(reintentos.size()).allSatisfy((k, ids) -> assertThat(ids).hasSize(1));
      await("one Bandeja item each, and no more").atMost(Duration.ofSeconds(10)).during(Duration.ofSeconds(1))
        .until(() -> Db.count(cluster, "SELECT count(*) FROM cadena.bandeja WHERE tipo = 'ESCALADA' AND pedido = ANY (?)",
          (Object) reintentos.toArray(UUID[]::new)), n -> n == reintentos.size());
    }
  }

  private static Settings cadena(Settings cluster) {
    return SharedInfra.process(cluster, Map.of("cadena.port", SharedInfra.freePort()));
  }

  private static List<UUID> iniciar(int n) {
    List<UUID> pedidos = new ArrayList<>();
    List<RepositorioCadena.Inicio> inicios = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      UUID pedido = UUID.randomUUID();
      pedidos.add(pedido);
      inicios.add(new RepositorioCadena.Inicio(pedido, "vendedor-concurrente",
        new JsonArray().add(new JsonObject().put("producto", "P-1").put("cantidad", 1))));
    }
    uno.iniciar(inicios, PLAZO_MS).await();
    return pedidos;
  }

  /** Every first stage retried, its wait already over: what the Reanudador left when nobody confirmed in time. */
  private static void vencerReintentos(List<UUID> pedidos) {
    assertThat(Db.update(settings, """
      UPDATE cadena.cadena_etapa SET estado = 'EN_REINTENTO', intento = 2, reintento_desde = now() - interval '1 second',
             plazo = now() - interval '1 millisecond'
      WHERE pedido = ANY (?) AND etapa = 'FACTURACION'""", (Object) pedidos.toArray(UUID[]::new))).isEqualTo(pedidos.size());
  }

  /** The confirmations in batches, in an order of their own ({@code semilla}). */
  private static List<List<RepositorioCadena.Confirmacion>> lotes(List<RepositorioCadena.Confirmacion> confirmaciones,
                                                                  long semilla) {
    List<RepositorioCadena.Confirmacion> mezcladas = new ArrayList<>(confirmaciones);
    Collections.shuffle(mezcladas, new Random(semilla));
    List<List<RepositorioCadena.Confirmacion>> lotes = new ArrayList<>();
    for (int i = 0; i < mezcladas.size(); i += LOTE) lotes.add(mezcladas.subList(i, Math.min(i + LOTE, mezcladas.size())));
    return lotes;
  }

  /** A failed statement is sent again, as its consumer would retry the records. */
  private static <T> Future<T> conReintento(java.util.function.Supplier<Future<T>> intento, int veces, AtomicInteger reintentados) {
    return intento.get().recover(err -> {
      if (veces == 0) return Future.failedFuture(err);
      LOG.info("A batch aborted, sent again: {}", err.getMessage());
      reintentados.incrementAndGet();
      return conReintento(intento, veces - 1, reintentados);
    });
  }

  private static Set<UUID> movidas(List<Future<Map<UUID, RepositorioCadena.Avance>>> futuros) {
    return Future.all(futuros).await().<Map<UUID, RepositorioCadena.Avance>>list().stream()
      .flatMap(m -> m.keySet().stream()).collect(Collectors.toSet());
  }

  /** The partitions of {@code etapa.completada} the process's Coordinador owns, from its readiness. */
  private static int particiones(RunningApp app) {
    Http.Response ready = Http.get(app.managementUrl() + "/health/ready", null);
    if (ready.status() != 200) return 0;
    for (Object c : ready.json().getJsonArray("checks")) {
      JsonObject check = (JsonObject) c;
      if (ConsumidorMensajes.COLA.equals(check.getString("id")) && check.getJsonObject("data") != null) {
        return check.getJsonObject("data").getJsonArray("partitions").size();
      }
    }
    return 0;
  }

  /** The chains this process finished ({@code chain_completion}'s count), from its metrics. */
  private static long completas(RunningApp app) {
    return Http.get(app.managementUrl() + "/metrics", null).body().lines()
      .filter(l -> l.startsWith("chain_completion_seconds_count"))
      .map(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
      .reduce(0L, Long::sum);
  }
}
