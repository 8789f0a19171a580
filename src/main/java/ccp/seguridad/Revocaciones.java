package ccp.seguridad;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/**
 * The security area's view of who is stopped (GET /v1/revocaciones): every actor in force in the Lista de revocación
 * or blocked in the Gestor's directory, with the revocation's reason and expiry and each reaction to that actor's
 * improper writes with its step, tries, times and what its compensation did (RegistroReacciones). Read only.
 */
final class Revocaciones {

  private static final String LISTAR = """
    WITH detenidos AS (
           SELECT actor FROM seguridad.lista_revocacion WHERE vence_en > now()
           UNION
           SELECT id FROM gestor.actores WHERE bloqueado)
    SELECT json_build_object(
             'actor', d.actor, 'perfil', g.perfil, 'revocado', r.actor IS NOT NULL AND r.vence_en > now(),
             'bloqueado', coalesce(g.bloqueado, false), 'revocado_en', r.revocado_en,
             'vence_en', CASE WHEN r.vence_en = 'infinity' THEN NULL ELSE r.vence_en END,
             'motivo', r.motivo,
             'reacciones', coalesce((SELECT json_agg(json_build_object(
                               'id_escritura', x.id_escritura, 'servicio', x.servicio, 'pedido', x.pedido, 'paso', x.paso,
                               't_escritura', x.t_escritura, 't_det', x.t_det, 'abierta_en', x.abierta_en,
                               'revocada_en', x.revocada_en, 'bloqueada_en', x.bloqueada_en,
                               'compensada_en', x.compensada_en, 'actualizada_en', x.actualizada_en, 'terminada_en', x.terminada_en,
                               'intentos', x.intentos, 'ultimo_error', x.ultimo_error, 'compensacion', x.compensacion)
                               ORDER BY x.t_det)
                             FROM seguridad.registro_reacciones x WHERE x.actor = d.actor), '[]')) AS detenido
    FROM detenidos d
    LEFT JOIN seguridad.lista_revocacion r ON r.actor = d.actor
    LEFT JOIN gestor.actores g ON g.id = d.actor
    ORDER BY r.revocado_en DESC NULLS LAST, d.actor
    LIMIT $1""";
  /**
   * What the list shows changes when one of these does: the revocations in force, their actors' reactions (each step
   * moves its actualizada_en) and the blocked actors.
   */
  private static final String VERSION = """
    WITH revocados AS (SELECT actor, revocado_en, vence_en FROM seguridad.lista_revocacion WHERE vence_en > now())
    SELECT concat_ws('/',
             (SELECT count(*) || ':' || coalesce(max(revocado_en)::text, '') || ':' || coalesce(max(vence_en)::text, '') FROM revocados),
             (SELECT count(*) || ':' || coalesce(max(x.actualizada_en)::text, '')
              FROM seguridad.registro_reacciones x WHERE x.actor IN (SELECT actor FROM revocados)),
             (SELECT count(*) FROM gestor.actores WHERE bloqueado)) AS version""";

  private final SqlClient sql;

  Revocaciones(SqlClient sql) {
    this.sql = sql;
  }

  Future<JsonArray> listar(int limit) {
    return sql.preparedQuery(LISTAR).execute(Tuple.of(limit)).map(rows -> {
      JsonArray list = new JsonArray();
      for (Row row : rows) list.add(row.getJsonObject("detenido"));
      return list;
    });
  }

  Future<String> version() {
    return sql.query(VERSION).execute().map(rows -> rows.iterator().next().getString("version"));
  }
}
