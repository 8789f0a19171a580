package ccp.pedidos;

import ccp.platform.db.Combiner;
import ccp.platform.http.Idempotencia;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Pedidos' tables: the order, its outbox event and the Idempotency-Key record, written by one statement. */
final class RepositorioPedidos {

  /** The most orders one statement records: a verticle's arrivals while the previous one was in flight. */
  private static final int LOTE_MAX = 256;

  /**
   * The orders a verticle took meanwhile, each with its outbox row, in one statement, hence one transaction and one
   * commit. An order with an Idempotency-Key has the key's row inserted first and is written only if the key was
   * free: a reused key writes nothing of its order. Answers the ids of the orders written.
   */
  private static final String CREAR = """
    WITH entrada AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS t (id uuid, actor text, tendero text, lineas jsonb,
             creado timestamptz, evento uuid, valor text, clave text, resumen text, respuesta jsonb)),
         clave AS (
           INSERT INTO pedidos.idempotencia (actor, clave, huella_cuerpo, estado_http, respuesta)
           SELECT actor, clave, resumen, 201, respuesta FROM entrada WHERE clave IS NOT NULL
           ON CONFLICT (actor, clave) DO NOTHING
           RETURNING actor, clave),
         libre AS (
           SELECT e.* FROM entrada e
           WHERE e.clave IS NULL OR EXISTS (SELECT 1 FROM clave c WHERE c.actor = e.actor AND c.clave = e.clave)),
         pedido AS (
           INSERT INTO pedidos.pedidos (id, actor, tendero, lineas, estado, creado_en)
           SELECT id, actor, tendero, lineas, 'REGISTRADO', creado FROM libre)
    INSERT INTO pedidos.outbox (id_evento, topic, clave, valor)
    SELECT evento, $2, id::text, valor FROM libre
    RETURNING clave""";
  private static final String RESPUESTA = "SELECT huella_cuerpo, estado_http, respuesta FROM pedidos.idempotencia WHERE actor = $1 AND clave = $2";
  private static final String LEER = """
    SELECT id, actor, tendero, lineas, estado, creado_en, anulado_en, motivo_anulacion FROM pedidos.pedidos WHERE id = $1""";
  /** A page of an actor's orders, newest first, after the cursor ({@code $2, $3}: the last order's creation and id). */
  private static final String DE_ACTOR = """
    SELECT id, actor, tendero, lineas, estado, creado_en, anulado_en, motivo_anulacion FROM pedidos.pedidos
    WHERE actor = $1 AND ($2::timestamptz IS NULL OR (creado_en, id) < ($2, $3))
    ORDER BY creado_en DESC, id DESC LIMIT $4""";
  /**
   * The console's live view of an actor's orders: the newest ones' ids and states (what its pages show), through the
   * index on (actor, creado_en), whatever the actor's history.
   */
  private static final String VERSION_DE_ACTOR = """
    SELECT coalesce(array_agg(id ORDER BY creado_en DESC, id DESC), '{}') AS recientes,
           coalesce(string_agg(id || ':' || estado, ',' ORDER BY creado_en DESC, id DESC), '') AS estados
    FROM (SELECT id, estado, creado_en FROM pedidos.pedidos WHERE actor = $1 ORDER BY creado_en DESC, id DESC LIMIT $2) r""";
  /** The annulment and its outbox event in one statement: the chain learns of it as of any committed write. */
  private static final String ANULAR = """
    WITH anulado AS (
           UPDATE pedidos.pedidos SET estado = 'ANULADO', anulado_en = now(), motivo_anulacion = $2
           WHERE id = $1 AND estado <> 'ANULADO'
           RETURNING id)
    INSERT INTO pedidos.outbox (id_evento, topic, clave, valor)
    SELECT $3, $4, $5, $6 FROM anulado""";

  private static final String SISTEMA = "sistema";

  private final SqlClient sql;
  private final Combiner<Unicidad, JsonObject, Boolean> altas;

  /** {@link #crear} must always be called on one context, its verticle's: the shared inserts are its state. */
  RepositorioPedidos(SqlClient sql) {
    this.sql = sql;
    this.altas = new Combiner<>(LOTE_MAX, Unicidad::de, this::crearLote);
  }

  /**
   * What two orders of one statement never share: an actor's Idempotency-Key, or, without one, the order itself. The
   * second order of a key waits for the next statement, after the first is committed, and finds the key used.
   */
  private record Unicidad(String actor, String clave, String pedido) {
    static Unicidad de(JsonObject alta) {
      String clave = alta.getString("clave");
      return clave == null ? new Unicidad(null, null, alta.getString("id")) : new Unicidad(alta.getString("actor"), clave, null);
    }
  }

  /**
   * Writes the order and its {@code escritura.realizada} event, and the Idempotency-Key's answer when there is a key.
   * Fails with {@link Idempotencia.ClaveUsada} (and writes nothing) when the key was used before.
   */
  Future<JsonObject> crear(UUID id, String actor, SolicitudPedido solicitud, String clave) {
    Instant creado = Instant.now();
    JsonObject pedido = new JsonObject()
      .put("pedido", id.toString()).put("estado", "REGISTRADO").put("actor", actor)
      .put("tendero", solicitud.tendero()).put("lineas", solicitud.lineas()).put("creado_en", creado.toString());
    String idEscritura = UUID.randomUUID().toString();
    Envelope escritura = new Envelope(idEscritura, EventTypes.ESCRITURA_REALIZADA, "/pedidos", creado, id.toString(), new JsonObject()
      .put("id_escritura", idEscritura).put("servicio", "pedidos").put("operacion", EventTypes.CREAR_PEDIDO).put("pedido", id.toString())
      .put("actor", actor).put("tendero", solicitud.tendero()).put("lineas", solicitud.lineas()).put("t_escritura", creado.toString()));
    JsonObject alta = new JsonObject()
      .put("id", id.toString()).put("actor", actor).put("tendero", solicitud.tendero()).put("lineas", solicitud.lineas())
      .put("creado", creado.toString()).put("evento", idEscritura).put("valor", escritura.encode())
      .put("clave", clave).put("resumen", clave == null ? null : solicitud.resumenCuerpo())
      .put("respuesta", clave == null ? null : pedido);
    return altas.submit(alta)
      .compose(escrito -> escrito != null ? Future.succeededFuture(pedido) : Future.failedFuture(new Idempotencia.ClaveUsada()));
  }

  private Future<Map<Unicidad, Boolean>> crearLote(List<JsonObject> lote) {
    Map<String, Unicidad> porPedido = new HashMap<>();
    for (JsonObject alta : lote) porPedido.put(alta.getString("id"), Unicidad.de(alta));
    return sql.preparedQuery(CREAR).execute(Tuple.of(new JsonArray(lote), Topics.ESCRITURA_REALIZADA))
      .map(rows -> Combiner.byKey(rows, row -> porPedido.get(row.getString("clave")), row -> Boolean.TRUE));
  }

  Future<Optional<Idempotencia.Respuesta>> respuestaGuardada(String actor, String clave) {
    return sql.preparedQuery(RESPUESTA).execute(Tuple.of(actor, clave)).map(Idempotencia::respuesta);
  }

  /** What the console compares to see an actor's orders change: the newest ones, with their states, and their ids. */
  record Version(String texto, List<UUID> recientes) {}

  Future<Version> version(String actor, int recientes) {
    return sql.preparedQuery(VERSION_DE_ACTOR).execute(Tuple.of(actor, recientes)).map(rows -> {
      Row row = rows.iterator().next();
      return new Version(row.getString("estados"), List.of(row.getArrayOfUUIDs("recientes")));
    });
  }

  /** Up to {@code limit} of {@code actor}'s orders created before ({@code antesEn}, {@code antesId}); null: the newest. */
  Future<List<JsonObject>> deActor(String actor, Instant antesEn, UUID antesId, int limit) {
    return sql.preparedQuery(DE_ACTOR)
      .execute(Tuple.of(actor, antesEn == null ? null : antesEn.atOffset(ZoneOffset.UTC), antesId, limit))
      .map(rows -> {
        List<JsonObject> list = new ArrayList<>();
        for (Row row : rows) list.add(toJson(row));
        return list;
      });
  }

  Future<Optional<JsonObject>> leer(UUID id) {
    return sql.preparedQuery(LEER).execute(Tuple.of(id)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      return Optional.of(toJson(rows.iterator().next()));
    });
  }

  private static JsonObject toJson(Row row) {
    return new JsonObject()
      .put("pedido", row.getUUID("id").toString())
      .put("estado", row.getString("estado"))
      .put("actor", row.getString("actor"))
      .put("tendero", row.getString("tendero"))
      .put("lineas", row.getJsonArray("lineas"))
      .put("creado_en", row.getOffsetDateTime("creado_en").toInstant().toString())
      .put("anulado_en", row.getOffsetDateTime("anulado_en") == null ? null : row.getOffsetDateTime("anulado_en").toInstant().toString())
      .put("motivo_anulacion", row.getString("motivo_anulacion"));
  }

  /** True when this call annulled the order; false when it was annulled already. */
  Future<Boolean> anular(UUID id, String motivo) {
    String idEscritura = UUID.randomUUID().toString();
    Envelope escritura = new Envelope(idEscritura, EventTypes.ESCRITURA_REALIZADA, "/pedidos", Instant.now(), id.toString(), new JsonObject()
      .put("id_escritura", idEscritura).put("servicio", "pedidos").put("operacion", EventTypes.ANULAR_PEDIDO).put("pedido", id.toString())
      .put("actor", SISTEMA).put("motivo", motivo).put("t_escritura", Instant.now().toString()));
    Tuple params = Tuple.of(id, motivo, UUID.fromString(idEscritura), Topics.ESCRITURA_REALIZADA, id.toString(), escritura.encode());
    return sql.preparedQuery(ANULAR).execute(params).map(rows -> rows.rowCount() == 1);
  }
}
