package ccp.seguridad;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * "Avisos entregados" of the Notificador ({@code seguridad.avisos}): one row per {@code id_alerta}, stored once, which
 * is when the security area is notified (it reads them here). The listing shows, with each alert, its SETs' delivery
 * to every Shared Signals stream, so an undelivered one is in sight, and for an alert about a reaction that reaction's
 * steps as they stand now (RegistroReacciones), so its timeline runs from the write to the notification.
 */
final class Avisos {

  private static final String REGISTRAR = """
    INSERT INTO seguridad.avisos (id_alerta, tipo, actor, detalle, t0)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (id_alerta) DO NOTHING""";
  private static final String COLUMNAS = """
    SELECT a.id_alerta, a.tipo, a.actor, a.detalle, a.t0, a.recibido_en, a.entregado_en,
           coalesce((SELECT json_agg(json_build_object(
                       'stream_id', e.id_flujo, 'jti', e.jti, 'event_type', e.tipo_evento, 'intentos', e.intentos,
                       'entregada_en', e.entregada_en, 'rechazada_en', e.rechazada_en, 'ultimo_error', e.ultimo_error)
                       ORDER BY e.id_flujo, e.tipo_evento)
                     FROM seguridad.ssf_entregas e WHERE e.id_alerta = a.id_alerta), '[]') AS entregas,
           CASE WHEN a.tipo IN ('ACCESO_INDEBIDO', 'REACCION_DETENIDA') THEN
             (SELECT json_build_object('paso', x.paso, 't_escritura', x.t_escritura, 't_det', x.t_det,
                       'abierta_en', x.abierta_en, 'revocada_en', x.revocada_en, 'bloqueada_en', x.bloqueada_en,
                       'compensada_en', x.compensada_en, 'terminada_en', x.terminada_en)
              FROM seguridad.registro_reacciones x WHERE x.id_escritura = (a.detalle->>'id_escritura')::uuid) END AS reaccion
    FROM seguridad.avisos a
    """;
  private static final String LISTAR = COLUMNAS + """
    WHERE ($1::text IS NULL OR a.actor = $1)
      AND (NOT $3 OR EXISTS (SELECT 1 FROM seguridad.ssf_entregas e WHERE e.id_alerta = a.id_alerta AND e.entregada_en IS NULL))
    ORDER BY a.recibido_en DESC, a.id_alerta
    LIMIT $2""";
  /** The console's feed: the alerts stored after an instant, oldest first. */
  private static final String RECIBIDAS_TRAS = COLUMNAS + """
    WHERE a.recibido_en > $1
    ORDER BY a.recibido_en, a.id_alerta
    LIMIT 200""";
  private static final String AHORA = "SELECT now() AS ahora";

  private final SqlClient sql;

  Avisos(SqlClient sql) {
    this.sql = sql;
  }

  /** Stores the alert; true if this call stored it (a repeated alert answers false). */
  Future<Boolean> registrar(UUID idAlerta, String tipo, String actor, JsonObject detalle, Instant t0) {
    OffsetDateTime at = t0 == null ? null : t0.atOffset(ZoneOffset.UTC);
    return sql.preparedQuery(REGISTRAR)
      .execute(Tuple.of(idAlerta, tipo, actor, detalle, at))
      .map(rows -> rows.rowCount() == 1);
  }

  /** {@code pendientes}: only the alerts with a SET some stream has not acknowledged (held, retried or refused). */
  Future<JsonArray> listar(String actor, int limit, boolean pendientes) {
    return sql.preparedQuery(LISTAR).execute(Tuple.of(actor, limit, pendientes)).map(rows -> {
      JsonArray list = new JsonArray();
      for (Row row : rows) list.add(toJson(row));
      return list;
    });
  }

  /** The alerts stored after {@code desde}, oldest first (at most 200). */
  Future<List<JsonObject>> recibidasTras(Instant desde) {
    return sql.preparedQuery(RECIBIDAS_TRAS).execute(Tuple.of(desde.atOffset(ZoneOffset.UTC))).map(rows -> {
      List<JsonObject> list = new ArrayList<>();
      for (Row row : rows) list.add(toJson(row));
      return list;
    });
  }

  /** The database's clock: the feed's cursor compares with the rows' {@code recibido_en}, which it stamps. */
  Future<Instant> ahora() {
    return sql.query(AHORA).execute().map(rows -> rows.iterator().next().getOffsetDateTime("ahora").toInstant());
  }

  private static JsonObject toJson(Row row) {
    return new JsonObject()
      .put("id_alerta", row.getUUID("id_alerta").toString())
      .put("tipo", row.getString("tipo"))
      .put("actor", row.getString("actor"))
      .put("detalle", row.getJsonObject("detalle"))
      .put("t0", text(row.getOffsetDateTime("t0")))
      .put("recibido_en", text(row.getOffsetDateTime("recibido_en")))
      .put("entregado_en", text(row.getOffsetDateTime("entregado_en")))
      .put("entregas", row.getJsonArray("entregas"))
      .put("reaccion", row.getJsonObject("reaccion"));
  }

  private static String text(OffsetDateTime at) {
    return at == null ? null : at.toInstant().toString();
  }
}
