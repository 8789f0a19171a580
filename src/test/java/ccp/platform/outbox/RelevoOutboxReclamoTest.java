package ccp.platform.outbox;

import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The outbox's claim among relays, on {@code pedidos.outbox} and the real broker: the rows are this test's own
 * ({@code escritura.realizada} events of an operation no consumer acts on), told apart by a mark in their payload.
 */
@DisplayName("RelevoOutbox among relays: claims released whole, held while in flight, each key's order kept")
class RelevoOutboxReclamoTest {

  private static final Outbox OUTBOX = new Outbox("pedidos");
  private static final int CLAIM_MS = 600;

  /** Rows inserted so far, by mark. */
  private static final Map<String, Integer> NUMERADAS = new java.util.concurrent.ConcurrentHashMap<>();

  private static Settings settings;
  private static Vertx vertx;
  private static SqlClient sql;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    Migrations.migrate(PgConfig.of(settings, "pedidos"), settings.flag("demo.seed"), List.of("pedidos"));
    vertx = Vertx.vertx();
    sql = PgClients.pipelined(vertx, PgConfig.of(settings, "pedidos"));
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a batch claimed together is released together: every failed row is free at once, not after the claim times out")
  void aFailedBatchIsReleasedWhole() {
    String marca = marca();
    insertar(marca, List.of("k1", "k2", "k3", "k4", "k5"));
    List<Outbox.PendingEvent> reclamadas = OUTBOX.claim(sql, 60_000, 10_000).await();
    assertThat(reclamadas.stream().filter(row -> row.value().contains(marca))).hasSize(5);

    OUTBOX.release(sql, reclamadas.stream().map(Outbox.PendingEvent::id).toList(), reclamadas.get(0).claimedAt()).await();

    assertThat(Db.count(settings, "SELECT count(*) FROM pedidos.outbox WHERE strpos(valor, ?) > 0 AND reclamado_en IS NULL", marca))
      .as("rows free again").isEqualTo(5);
    marcarEnviadas(marca);
  }

  @Test
  @DisplayName("a relay whose sends are in flight past the claim timeout keeps its claim: no other relay publishes those rows meanwhile")
  void aClaimInFlightIsHeld() throws Exception {
    String marca = marca();
    List<String> claves = List.of("a", "b", "c", "d");
    insertar(marca, claves);
    // Relay A's broker does not answer: its sends wait for metadata up to the producer's max.block.ms (5 s).
    Settings muda = SharedInfra.settings(Map.of("kafka.bootstrap", "127.0.0.1:" + SharedInfra.freePort()));
    Vertx procesoA = Vertx.vertx();
    Vertx procesoB = Vertx.vertx();
    try {
      desplegar(procesoA, muda, 50);
      await("relay A holds the rows").atMost(Duration.ofSeconds(10)).until(() -> Db.count(settings,
        "SELECT count(*) FROM pedidos.outbox WHERE strpos(valor, ?) > 0 AND reclamado_en IS NOT NULL", marca) == claves.size());
      desplegar(procesoB, settings, 50);
      await("no row published while A's sends are in flight").during(Duration.ofMillis(3L * CLAIM_MS)).atMost(Duration.ofSeconds(10))
        .until(() -> Db.count(settings, "SELECT count(*) FROM pedidos.outbox WHERE strpos(valor, ?) > 0 AND enviado_en IS NOT NULL", marca) == 0);
      assertThat(publicados(marca)).isEmpty();

      procesoA.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
      await("relay B published them once A stopped").atMost(Duration.ofSeconds(30)).until(() -> Db.count(settings,
        "SELECT count(*) FROM pedidos.outbox WHERE strpos(valor, ?) > 0 AND enviado_en IS NULL", marca) == 0);
      assertThat(publicados(marca)).extracting(ConsumerRecord::key).containsExactlyInAnyOrderElementsOf(claves);
    } finally {
      procesoA.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
      procesoB.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("a relay killed mid-flight, two relays beside it: every row published, each key's events in order, repeats only of what it had sent")
  void aRelayKilledMidFlightBesideTwoOthers() throws Exception {
    String marca = marca();
    List<String> claves = List.of("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8");
    List<String> filas = new ArrayList<>();
    for (int i = 0; i < 120; i++) filas.add(claves.get(i % claves.size()));
    List<String> ids = new ArrayList<>(insertar(marca, filas));

    // The killed relay: it claimed the first rows and the broker took some of them, then it died before marking any.
    List<Outbox.PendingEvent> todas = OUTBOX.claim(sql, CLAIM_MS, 10_000).await();
    List<Outbox.PendingEvent> reclamadas = todas.stream().filter(row -> row.value().contains(marca)).limit(60).toList();
    List<Long> ajenas = todas.stream().filter(row -> !reclamadas.contains(row)).map(Outbox.PendingEvent::id).toList();
    OUTBOX.release(sql, ajenas, todas.get(0).claimedAt()).await();
    EventPublisher muerto = EventPublisher.create(vertx, KafkaConfig.of(settings, "pedidos"));
    List<Outbox.PendingEvent> enviadas = reclamadas.subList(0, 25);
    Future.all(enviadas.stream().map(row -> muerto.publishEncoded(row.topic(), row.key(), row.value())).toList()).await();
    muerto.close().await();

    Vertx procesoB = Vertx.vertx();
    Vertx procesoC = Vertx.vertx();
    try {
      desplegar(procesoB, settings, 15);
      desplegar(procesoC, settings, 15);
      // More of each key's events while both relays run.
      for (int tanda = 0; tanda < 8; tanda++) {
        ids.addAll(insertar(marca, claves));
        Thread.sleep(50);
      }
      await("every row sent").atMost(Duration.ofSeconds(60)).until(() -> Db.count(settings,
        "SELECT count(*) FROM pedidos.outbox WHERE strpos(valor, ?) > 0 AND enviado_en IS NULL", marca) == 0);
    } finally {
      procesoB.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
      procesoC.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    List<Envelope> publicados = publicados(marca).stream().map(r -> Envelope.parse(r.value())).toList();
    assertThat(publicados.stream().map(Envelope::id).collect(Collectors.toSet())).as("the events published")
      .containsExactlyInAnyOrderElementsOf(ids);
    Set<String> vistos = new HashSet<>();
    List<String> repetidos = new ArrayList<>();
    Map<String, List<Integer>> ordenPorClave = new LinkedHashMap<>();
    for (Envelope e : publicados) {
      if (!vistos.add(e.id())) {
        repetidos.add(e.id());
        continue;
      }
      ordenPorClave.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.data().getInteger("n"));
    }
    assertThat(repetidos).as("published twice: only what the killed relay had sent")
      .isSubsetOf(enviadas.stream().map(row -> Envelope.parse(row.value()).id()).toList());
    assertThat(ordenPorClave).as("each key's events, first publishes in order").hasSize(claves.size())
      .allSatisfy((clave, orden) -> assertThat(orden).isSorted());
    System.out.printf("rows %d, published %d, repeated %d (the killed relay had sent %d)%n", ids.size(), publicados.size(),
      repetidos.size(), enviadas.size());
  }

  @Test
  @DisplayName("the relay's claim walks the unsent rows' index in id order: the thousands of rows sent before it are skipped, not read again")
  void theClaimSkipsTheRowsSentBeforeIt() {
    // An outbox of pedidos' shape that no statistics describe yet, as after a fresh start until autovacuum analyzes it:
    // the state in which the planner takes a bitmap scan for the claim.
    String schema = "relevo" + UUID.randomUUID().toString().replaceAll("[^a-f]", "");
    Db.update(settings, "CREATE SCHEMA " + schema + " AUTHORIZATION pedidos");
    Db.update(settings, "CREATE TABLE " + schema + ".outbox (LIKE pedidos.outbox INCLUDING ALL) WITH (autovacuum_enabled = false)");
    Db.update(settings, "ALTER TABLE " + schema + ".outbox OWNER TO pedidos");
    Db.update(settings, "INSERT INTO " + schema + ".outbox (id_evento, topic, clave, valor, enviado_en)"
      + " SELECT gen_random_uuid(), 'escritura.realizada', 'enviada-' || (n % 100), repeat('x', 600), now() FROM generate_series(1, 6000) n");
    Db.update(settings, "INSERT INTO " + schema + ".outbox (id_evento, topic, clave, valor)"
      + " SELECT gen_random_uuid(), 'escritura.realizada', 'pendiente-' || n, repeat('x', 600) FROM generate_series(1, 3) n");
    // Sent by an update, as the relay marks them: each leaves a dead entry in the index of the unsent rows.
    Db.update(settings, "UPDATE " + schema + ".outbox SET enviado_en = NULL WHERE clave LIKE 'enviada-%'");
    Db.update(settings, "UPDATE " + schema + ".outbox SET enviado_en = now() WHERE clave LIKE 'enviada-%'");
    SqlClient relay = PgClients.relay(vertx, PgConfig.of(settings, "pedidos"));
    try {
      String explain = "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + new Outbox(schema).claimStatement();
      // The first claim past the sent rows marks their index entries dead once no snapshot can see them any more.
      JsonObject[] plan = new JsonObject[1];
      await("a claim that reads only the pages of the rows still unsent").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> {
          plan[0] = new JsonArray(relay.preparedQuery(explain).execute(Tuple.of(60_000L, 100)).await().iterator().next().getValue(0).toString())
            .getJsonObject(0).getJsonObject("Plan");
          return plan[0].getLong("Shared Hit Blocks") + plan[0].getLong("Shared Read Blocks") < 150;
        });
      assertThat(plan[0].encode()).as("the claim's plan").contains("\"Node Type\":\"Index Scan\"").doesNotContain("Bitmap");
    } finally {
      relay.close().await();
      Db.update(settings, "DROP SCHEMA " + schema + " CASCADE");
    }
  }

  /** A RelevoOutbox of pedidos in {@code process}, as a replica would run it, publishing as pedidos. */
  private static void desplegar(Vertx process, Settings as, int batch) {
    RelevoOutbox relevo = new RelevoOutbox(OUTBOX, new OutboxConfig(50, batch, CLAIM_MS, 60_000), KafkaConfig.of(as, "pedidos"),
      PgConfig.of(settings, "pedidos"), new SimpleMeterRegistry());
    process.deployVerticle(relevo).await();
  }

  private static String marca() {
    return "relevo-" + UUID.randomUUID();
  }

  /** One outbox row per key, in order, each numbered by its place among the mark's rows; answers their event ids. */
  private static List<String> insertar(String marca, List<String> claves) {
    List<String> ids = new ArrayList<>();
    List<Tuple> filas = new ArrayList<>();
    for (String clave : claves) {
      int n = NUMERADAS.merge(marca, 1, Integer::sum);
      JsonObject data = new JsonObject().put("servicio", "pedidos").put("operacion", "PRUEBA_RELEVO").put("actor", marca)
        .put("pedido", UUID.randomUUID().toString()).put("id_escritura", UUID.randomUUID().toString()).put("n", n);
      Envelope e = Envelope.create(EventTypes.ESCRITURA_REALIZADA, "/prueba/relevo", clave, data);
      filas.add(Tuple.of(UUID.fromString(e.id()), Topics.ESCRITURA_REALIZADA, clave, e.encode()));
      ids.add(e.id());
    }
    // One statement per row, in order, so that the ids follow the numbering.
    sql.preparedQuery("INSERT INTO pedidos.outbox (id_evento, topic, clave, valor) VALUES ($1, $2, $3, $4)").executeBatch(filas).await();
    return ids;
  }

  private static List<ConsumerRecord<String, String>> publicados(String marca) {
    return Topic.read(settings, Topics.ESCRITURA_REALIZADA, r -> r.value().contains(marca));
  }

  /** The rows of a test that publishes nothing, set aside so that no relay of a later test publishes them. */
  private static void marcarEnviadas(String marca) {
    Db.update(settings, "UPDATE pedidos.outbox SET enviado_en = now() WHERE strpos(valor, ?) > 0", marca);
  }
}
