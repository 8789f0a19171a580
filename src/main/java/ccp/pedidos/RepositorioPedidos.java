package ccp.pedidos;

import ccp.platform.http.Idempotencia;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.templates.SqlTemplate;

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

  /**
   * The order and its outbox row in one statement, hence one transaction. With an Idempotency-Key the key's row is
   * inserted first and the order only if the key was free: a reused key writes nothing.
   */
  private static final String CREAR = """
    WITH clave AS (
           INSERT INTO pedidos.idempotencia (actor, clave, huella_cuerpo, estado_http, respuesta)
           SELECT #{actor}, #{clave}, #{resumenCuerpo}, 201, #{respuesta} WHERE #{clave}::text IS NOT NULL
           ON CONFLICT (actor, clave) DO NOTHING
           RETURNING 1),
         libre AS (SELECT #{clave}::text IS NULL OR EXISTS (SELECT 1 FROM clave) AS si),
         pedido AS (
           INSERT INTO pedidos.pedidos (id, actor, tendero, lineas, estado, creado_en)
           SELECT #{id}, #{actor}, #{tendero}, #{lineas}, 'REGISTRADO', #{creado} FROM libre WHERE si)
    INSERT INTO pedidos.outbox (id_evento, topic, clave, valor)
    SELECT #{evento}, #{topic}, #{claveEvento}, #{valor} FROM libre WHERE si""";
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
  private final SqlTemplate<Map<String, Object>, SqlResult<Void>> crear;

  RepositorioPedidos(SqlClient sql) {
    this.sql = sql;
    this.crear = SqlTemplate.forUpdate(sql, CREAR);
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
    Map<String, Object> params = new HashMap<>();
    params.put("id", id);
    params.put("actor", actor);
    params.put("tendero", solicitud.tendero());
    params.put("lineas", solicitud.lineas());
    params.put("creado", creado.atOffset(ZoneOffset.UTC));
    params.put("evento", UUID.fromString(idEscritura));
    params.put("topic", Topics.ESCRITURA_REALIZADA);
    params.put("claveEvento", id.toString());
    params.put("valor", escritura.encode());
    params.put("clave", clave);
    params.put("resumenCuerpo", clave == null ? null : solicitud.resumenCuerpo());
    params.put("respuesta", clave == null ? null : pedido);
    return crear.execute(params)
      .compose(rows -> rows.rowCount() == 1 ? Future.succeededFuture(pedido) : Future.failedFuture(new Idempotencia.ClaveUsada()));
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
