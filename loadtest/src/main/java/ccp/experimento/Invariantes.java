package ccp.experimento;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The experiment's invariants, read after the run from the databases (as the superuser) and the topics (as the
 * broker's super user): what was acknowledged exists once and ended, no effect happened twice, stock is conserved,
 * every alert and reaction happened once and only where due. Each item checked counts once; a violated one is named.
 */
final class Invariantes {

  private static final int SHOWN = 5;

  private final SqlClient sql;
  private final Map<String, String> kafka;
  private int checked;
  private final Map<String, List<String>> violated = new java.util.LinkedHashMap<>();

  Invariantes(SqlClient sql, Map<String, String> kafka) {
    this.sql = sql;
    this.kafka = kafka;
  }

  /** Per product, its units available plus those reserved by orders not compensated: what a run must not change. */
  static final String UNIDADES = """
    SELECT s.producto, s.disponible + coalesce((SELECT sum(r.cantidad) FROM inventario.reservas r
             WHERE r.producto = s.producto AND NOT EXISTS (SELECT 1 FROM inventario.etapa_procesada e
               WHERE e.pedido = r.pedido AND e.etapa = 'COMPENSACION')), 0) AS unidades
    FROM inventario.stock s""";

  static Map<String, Long> unidades(SqlClient sql) throws Exception {
    Map<String, Long> u = new HashMap<>();
    for (Row row : sql.query(UNIDADES).execute().await(30, TimeUnit.SECONDS)) u.put(row.getString("producto"), row.getLong("unidades"));
    return u;
  }

  /**
   * Orders acknowledged whose chain has not ended yet (none, or EN_CURSO with nothing in the Bandeja: a chain escalated
   * to a person has ended for the system): the run waits for them to settle.
   */
  static int sinTerminar(SqlClient sql, List<Carga.Acuse> pedidos) throws Exception {
    UUID[] ids = ids(pedidos);
    Row row = sql.preparedQuery("""
        SELECT count(*) AS terminadas FROM cadena.cadenas c WHERE pedido = ANY($1) AND (estado <> 'EN_CURSO'
          OR EXISTS (SELECT 1 FROM cadena.bandeja b WHERE b.pedido = c.pedido))""")
      .execute(Tuple.of(ids)).await(30, TimeUnit.SECONDS).iterator().next();
    return ids.length - row.getInteger("terminadas");
  }

  void verificar(Carga carga, Map<String, Long> unidadesAntes) throws Exception {
    pedidos(carga.pedidos);
    topicoEscrituras(carga.pedidos);
    efectosUnaVez();
    stock(unidadesAntes);
    alertas(carga.sesiones);
    reacciones(carga.pedidos);
  }

  private void check(String invariant, boolean held, String detail) {
    checked++;
    if (!held) violated.computeIfAbsent(invariant, k -> new ArrayList<>()).add(detail);
  }

  /** Each order acknowledged 201 exists once, and its chain ended (LISTO, RECHAZADO, DETENIDO, or in the Bandeja). */
  private void pedidos(List<Carga.Acuse> acked) throws Exception {
    Map<UUID, String> estados = new HashMap<>();
    Map<UUID, String> cadenas = new HashMap<>();
    for (Row row : sql.preparedQuery("SELECT id, estado FROM pedidos.pedidos WHERE id = ANY($1)").execute(Tuple.of(ids(acked)))
      .await(60, TimeUnit.SECONDS)) estados.put(row.getUUID("id"), row.getString("estado"));
    for (Row row : sql.preparedQuery("""
        SELECT pedido, CASE WHEN estado = 'EN_CURSO' AND EXISTS (SELECT 1 FROM cadena.bandeja b WHERE b.pedido = c.pedido)
                            THEN 'EN_BANDEJA' ELSE estado END AS estado
        FROM cadena.cadenas c WHERE pedido = ANY($1)""").execute(Tuple.of(ids(acked)))
      .await(60, TimeUnit.SECONDS)) cadenas.put(row.getUUID("pedido"), row.getString("estado"));
    Set<String> seen = new HashSet<>();
    for (Carga.Acuse a : acked) {
      UUID id = UUID.fromString(a.id());
      check("an acknowledged order exists once", estados.containsKey(id) && seen.add(a.id()), a.id());
      String cadena = cadenas.get(id);
      check("an acknowledged order's chain ended", cadena != null && !cadena.equals("EN_CURSO"), a.id() + " chain " + cadena);
    }
  }

  /** Each acknowledged order's write is on escritura.realizada (what starts its chain and its check). */
  private void topicoEscrituras(List<Carga.Acuse> acked) {
    Set<String> escritos = new HashSet<>();
    leer(Topics.ESCRITURA_REALIZADA, envelope -> {
      if (EventTypes.CREAR_PEDIDO.equals(envelope.data().getString("operacion"))) escritos.add(envelope.data().getString("pedido"));
    });
    for (Carga.Acuse a : acked) check("an acknowledged order is on escritura.realizada", escritos.contains(a.id()), a.id());
  }

  /** No effect twice: counted by each effect's natural key, whatever the tables' keys say. */
  private void efectosUnaVez() throws Exception {
    Map<String, String> efectos = Map.of(
      "invoice", "SELECT pedido::text AS k FROM facturacion.facturas GROUP BY pedido HAVING count(*) > 1",
      "reservation", "SELECT pedido || '/' || producto AS k FROM inventario.reservas GROUP BY pedido, producto HAVING count(*) > 1",
      "credit note", "SELECT pedido::text AS k FROM facturacion.notas_credito GROUP BY pedido HAVING count(*) > 1",
      "dispatch validation", "SELECT pedido::text AS k FROM despacho.validaciones GROUP BY pedido HAVING count(*) > 1",
      "alert of a session", """
        SELECT detalle->>'sesion' AS k FROM seguridad.avisos WHERE tipo = 'DISPOSITIVO_NO_VALIDO'
        GROUP BY detalle->>'sesion' HAVING count(*) > 1""",
      "alert of an improper write", """
        SELECT detalle->>'id_escritura' AS k FROM seguridad.avisos WHERE tipo = 'ACCESO_INDEBIDO'
        GROUP BY detalle->>'id_escritura' HAVING count(*) > 1""",
      "revocation", "SELECT actor AS k FROM seguridad.lista_revocacion GROUP BY actor HAVING count(*) > 1",
      "reaction (block, compensation)", "SELECT pedido AS k FROM seguridad.registro_reacciones GROUP BY pedido HAVING count(*) > 1");
    for (var efecto : efectos.entrySet()) {
      List<String> twice = new ArrayList<>();
      for (Row row : sql.query(efecto.getValue()).execute().await(60, TimeUnit.SECONDS)) twice.add(row.getString("k"));
      check("no " + efecto.getKey() + " twice", twice.isEmpty(), String.join(", ", twice.subList(0, Math.min(SHOWN, twice.size()))));
    }
  }

  private void stock(Map<String, Long> antes) throws Exception {
    Map<String, Long> despues = unidades(sql);
    antes.forEach((producto, unidades) -> check("stock is conserved (available + reserved)",
      unidades.equals(despues.get(producto)), producto + ": " + unidades + " before, " + despues.get(producto) + " after"));
  }

  /** A session from a device never registered: one alert, in the database and on alerta.seguridad; one from home: none. */
  private void alertas(List<Carga.Acuse> sesiones) throws Exception {
    Map<String, Integer> enBase = new HashMap<>();
    for (Row row : sql.query("SELECT detalle->>'sesion' AS sesion, count(*) AS n FROM seguridad.avisos"
      + " WHERE tipo = 'DISPOSITIVO_NO_VALIDO' GROUP BY 1").execute().await(60, TimeUnit.SECONDS)) {
      enBase.put(row.getString("sesion"), row.getInteger("n"));
    }
    Map<String, Set<String>> enTopico = new HashMap<>();
    leer(Topics.ALERTA_SEGURIDAD, envelope -> {
      JsonObject data = envelope.data();
      String sesion = data.getString("sesion");
      if (sesion != null) enTopico.computeIfAbsent(sesion, k -> new HashSet<>()).add(data.getString("id_alerta"));
    });
    for (Carga.Acuse s : sesiones) {
      int esperadas = s.reaccion() ? 1 : 0;
      check(s.reaccion() ? "a wrong-device session has exactly one alert" : "a right-device session has no alert",
        enBase.getOrDefault(s.id(), 0) == esperadas && enTopico.getOrDefault(s.id(), Set.of()).size() == esperadas,
        s.id() + ": " + enBase.getOrDefault(s.id(), 0) + " in seguridad.avisos, " + enTopico.getOrDefault(s.id(), Set.of()).size()
          + " on alerta.seguridad");
    }
  }

  /** Each improper write reacted to once and to the end: revoked, blocked, its order annulled, the area notified. */
  private void reacciones(List<Carga.Acuse> pedidos) throws Exception {
    List<Carga.Acuse> impropios = pedidos.stream().filter(Carga.Acuse::reaccion).toList();
    Map<String, String> pasos = new HashMap<>();
    Map<String, Integer> veces = new HashMap<>();
    for (Row row : sql.query("""
        SELECT r.pedido, r.paso, p.estado AS pedido_estado, a.bloqueado, (l.actor IS NOT NULL) AS revocado
        FROM seguridad.registro_reacciones r
        LEFT JOIN pedidos.pedidos p ON p.id::text = r.pedido
        LEFT JOIN gestor.actores a ON a.id = r.actor
        LEFT JOIN seguridad.lista_revocacion l ON l.actor = r.actor
        WHERE r.actor LIKE '""" + Carga.CONSULTAS + "%'").execute().await(60, TimeUnit.SECONDS)) {
      veces.merge(row.getString("pedido"), 1, Integer::sum);
      pasos.put(row.getString("pedido"), row.getString("paso") + "/" + row.getString("pedido_estado") + "/"
        + (Boolean.TRUE.equals(row.getBoolean("bloqueado")) ? "blocked" : "not blocked") + "/"
        + (Boolean.TRUE.equals(row.getBoolean("revocado")) ? "revoked" : "not revoked"));
    }
    for (Carga.Acuse a : impropios) {
      check("an improper write was reacted to once, to the end", veces.getOrDefault(a.id(), 0) == 1
        && "NOTIFICADA/ANULADO/blocked/revoked".equals(pasos.get(a.id())), a.id() + ": " + veces.getOrDefault(a.id(), 0)
        + " reactions, " + pasos.get(a.id()));
    }
  }

  /** Every record of {@code topic}, from the beginning to its end offsets at the time of the call. */
  private void leer(String topic, Consumer<Envelope> each) {
    Map<String, Object> config = new HashMap<>(kafka);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) throw new IllegalStateException("could not read " + topic + " to its end in 60 s");
        for (ConsumerRecord<String, String> rec : consumer.poll(Duration.ofMillis(500))) {
          try {
            each.accept(Envelope.parse(rec.value()));
          } catch (RuntimeException poison) {
            // Not an event of ours: no invariant is about it.
          }
        }
      }
    }
  }

  private static UUID[] ids(List<Carga.Acuse> acked) {
    return acked.stream().map(a -> UUID.fromString(a.id())).toArray(UUID[]::new);
  }

  int checked() {
    return checked;
  }

  int violatedCount() {
    return violated.values().stream().mapToInt(List::size).sum();
  }

  /** One line per invariant violated: how many times, and the first few items. */
  String describeViolations() {
    StringBuilder out = new StringBuilder();
    violated.forEach((invariant, items) -> out.append(String.format("  VIOLATED %-55s %d× e.g. %s%n", invariant, items.size(),
      String.join("; ", items.subList(0, Math.min(SHOWN, items.size()))))));
    return out.toString();
  }
}
