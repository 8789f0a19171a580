package ccp.etapas;

import ccp.platform.http.Idempotencia;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.templates.SqlTemplate;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Inventario's stock adjustments ({@code inventario.ajustes}): the adjustment, its stock change, its outbox event and
 * the Idempotency-Key record, written by one statement; and the Reacción's revert of one, once, by another.
 */
final class RepositorioAjustes {

  /** Removing the units would take the product's stock below zero (or the product has none); nothing was written. */
  static final class SinStock extends RuntimeException {
    SinStock() {
      super(null, null, false, false);
    }
  }

  static final String UNIQUE_VIOLATION = "23505";
  private static final String SISTEMA = "sistema";

  /**
   * One statement, hence one transaction: the stock change (an addition upserts the product's row; a removal applies
   * only while the stock covers it, so it never goes below zero), the adjustment with the stock it left, the key's
   * answer and the outbox row. A key already used writes nothing; two attempts with one key at once: the second's key
   * insert fails (unique) and its whole statement with it.
   */
  private static final String AJUSTAR = """
    WITH previa AS (SELECT 1 FROM inventario.idempotencia WHERE actor = #{actor} AND clave = #{clave}::text),
         sube AS (
           INSERT INTO inventario.stock AS s (producto, disponible)
           SELECT #{producto}, #{cantidad}::integer WHERE #{cantidad}::integer > 0 AND NOT EXISTS (SELECT 1 FROM previa)
           ON CONFLICT (producto) DO UPDATE SET disponible = s.disponible + EXCLUDED.disponible
           RETURNING s.disponible),
         baja AS (
           UPDATE inventario.stock s SET disponible = s.disponible + #{cantidad}::integer
           WHERE s.producto = #{producto} AND #{cantidad}::integer < 0 AND s.disponible + #{cantidad}::integer >= 0 AND NOT EXISTS (SELECT 1 FROM previa)
           RETURNING s.disponible),
         ajuste AS (
           INSERT INTO inventario.ajustes (id, actor, producto, cantidad, motivo, disponible, creado_en)
           SELECT #{id}, #{actor}, #{producto}, #{cantidad}::integer, #{motivo}::text, d.disponible, #{creado} FROM (SELECT disponible FROM sube UNION ALL SELECT disponible FROM baja) AS d
           RETURNING disponible),
         clave AS (
           INSERT INTO inventario.idempotencia (actor, clave, huella_cuerpo, estado_http, respuesta)
           SELECT #{actor}, #{clave}::text, #{resumenCuerpo}, 201, #{respuesta}::jsonb || jsonb_build_object('disponible', disponible) FROM ajuste WHERE #{clave}::text IS NOT NULL),
         evento AS (
           INSERT INTO inventario.outbox (id_evento, topic, clave, valor)
           SELECT #{evento}, #{topic}, #{claveEvento}, #{valor} FROM ajuste)
    SELECT (SELECT disponible FROM ajuste) AS disponible, EXISTS (SELECT 1 FROM previa) AS clave_usada""";
  private static final String RESPUESTA = "SELECT huella_cuerpo, estado_http, respuesta FROM inventario.idempotencia WHERE actor = $1 AND clave = $2";
  /**
   * The revert, once (unique {@code revierte}): the product's row is locked first, then the units the adjustment added
   * are taken back while stock lasts — those already reserved stay reserved and are counted in {@code no_revertidas} —
   * or the units it removed are returned. Stock never goes below zero. A second revert inserts nothing and changes
   * nothing.
   */
  private static final String REVERTIR = """
    WITH original AS (
           SELECT id, producto, cantidad FROM inventario.ajustes WHERE id = $1 AND revierte IS NULL),
         actual AS (
           SELECT s.producto, s.disponible, o.id, o.cantidad,
                  CASE WHEN o.cantidad > 0 THEN -LEAST(o.cantidad, s.disponible) ELSE -o.cantidad END AS delta
           FROM inventario.stock s JOIN original o USING (producto)
           FOR UPDATE OF s),
         reversion AS (
           INSERT INTO inventario.ajustes (id, actor, producto, cantidad, motivo, disponible, creado_en, revierte, no_revertidas)
           SELECT $2, $3, producto, delta, $4, disponible + delta, now(), id, cantidad + delta FROM actual
           ON CONFLICT (revierte) DO NOTHING
           RETURNING producto, cantidad)
    UPDATE inventario.stock s SET disponible = s.disponible + r.cantidad FROM reversion r WHERE s.producto = r.producto""";
  private static final String LEER = """
    SELECT a.id, a.actor, a.producto, a.cantidad, a.motivo, a.disponible, a.creado_en,
           r.id AS r_id, r.cantidad AS r_cantidad, r.no_revertidas AS r_no_revertidas, r.motivo AS r_motivo,
           r.disponible AS r_disponible, r.creado_en AS r_creado_en
    FROM inventario.ajustes a LEFT JOIN inventario.ajustes r ON r.revierte = a.id
    WHERE a.id = $1 AND a.revierte IS NULL""";

  private final SqlClient sql;
  private final SqlTemplate<Map<String, Object>, RowSet<Row>> ajustar;

  RepositorioAjustes(SqlClient sql) {
    this.sql = sql;
    this.ajustar = SqlTemplate.forQuery(sql, AJUSTAR);
  }

  /**
   * Applies the adjustment and writes its {@code escritura.realizada} event, and the Idempotency-Key's answer when there
   * is a key. Fails with {@link Idempotencia.ClaveUsada} when the key was used before, {@link SinStock} when the removal is not
   * covered; then nothing is written.
   */
  Future<JsonObject> ajustar(UUID id, String actor, SolicitudAjuste solicitud, String clave) {
    Instant creado = Instant.now();
    JsonObject ajuste = new JsonObject()
      .put("ajuste", id.toString()).put("actor", actor).put("producto", solicitud.producto()).put("cantidad", solicitud.cantidad())
      .put("motivo", solicitud.motivo()).put("creado_en", creado.toString()).putNull("reversion");
    String idEscritura = UUID.randomUUID().toString();
    Envelope escritura = new Envelope(idEscritura, EventTypes.ESCRITURA_REALIZADA, "/inventario", creado, id.toString(), new JsonObject()
      .put("id_escritura", idEscritura).put("servicio", "inventario").put("operacion", EventTypes.AJUSTAR_INVENTARIO)
      .put("ajuste", id.toString()).put("actor", actor).put("producto", solicitud.producto()).put("cantidad", solicitud.cantidad())
      .put("t_escritura", creado.toString()));
    Map<String, Object> params = new HashMap<>();
    params.put("id", id);
    params.put("actor", actor);
    params.put("producto", solicitud.producto());
    params.put("cantidad", solicitud.cantidad());
    params.put("motivo", solicitud.motivo());
    params.put("creado", creado.atOffset(ZoneOffset.UTC));
    params.put("evento", UUID.fromString(idEscritura));
    params.put("topic", Topics.ESCRITURA_REALIZADA);
    params.put("clave", clave);
    params.put("resumenCuerpo", clave == null ? null : solicitud.resumenCuerpo());
    params.put("respuesta", clave == null ? null : ajuste);
    // The key of the write on the topic is what the write made, as Pedidos' (the order): here the adjustment.
    params.put("claveEvento", id.toString());
    params.put("valor", escritura.encode());
    return ajustar.execute(params).recover(err -> Future.failedFuture(
        clave != null && err instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState()) ? new Idempotencia.ClaveUsada() : err))
      .compose(rows -> {
        Row row = rows.iterator().next();
        if (row.getBoolean("clave_usada")) return Future.failedFuture(new Idempotencia.ClaveUsada());
        Integer disponible = row.getInteger("disponible");
        return disponible == null ? Future.failedFuture(new SinStock()) : Future.succeededFuture(ajuste.put("disponible", disponible));
      });
  }

  Future<Optional<Idempotencia.Respuesta>> respuestaGuardada(String actor, String clave) {
    return sql.preparedQuery(RESPUESTA).execute(Tuple.of(actor, clave)).map(Idempotencia::respuesta);
  }

  /** True when this call reverted the adjustment; false when it was reverted before, or there is no such adjustment. */
  Future<Boolean> revertir(UUID ajuste, String motivo) {
    return sql.preparedQuery(REVERTIR).execute(Tuple.of(ajuste, UUID.randomUUID(), SISTEMA, motivo)).map(rows -> rows.rowCount() == 1);
  }

  /** The adjustment with its revert ({@code reversion}, null while it has none). */
  Future<Optional<JsonObject>> leer(UUID id) {
    return sql.preparedQuery(LEER).execute(Tuple.of(id)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      JsonObject reversion = row.getUUID("r_id") == null ? null : new JsonObject()
        .put("ajuste", row.getUUID("r_id").toString())
        .put("cantidad", row.getInteger("r_cantidad"))
        .put("no_revertidas", row.getInteger("r_no_revertidas"))
        .put("motivo", row.getString("r_motivo"))
        .put("disponible", row.getInteger("r_disponible"))
        .put("creado_en", instante(row.getOffsetDateTime("r_creado_en")));
      return Optional.of(new JsonObject()
        .put("ajuste", row.getUUID("id").toString())
        .put("actor", row.getString("actor"))
        .put("producto", row.getString("producto"))
        .put("cantidad", row.getInteger("cantidad"))
        .put("motivo", row.getString("motivo"))
        .put("disponible", row.getInteger("disponible"))
        .put("creado_en", instante(row.getOffsetDateTime("creado_en")))
        .put("reversion", reversion));
    });
  }

  private static String instante(OffsetDateTime at) {
    return at.toInstant().toString();
  }
}
