package ccp.gestor;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.Optional;

/**
 * The Gestor's actors and sessions ({@code gestor.actores}, {@code gestor.sesiones}). Opening a session and
 * blocking an actor are each decided by the actor's row, so a session is never opened for a blocked actor and a
 * block ends every session opened before it.
 */
final class Actores {

  enum Apertura { ABIERTA, DESCONOCIDO, BLOQUEADO }

  record Permisos(String actor, String perfil, boolean bloqueado) {
    /** Only a VENDEDOR writes; CONSULTA is read-only and SEGURIDAD reads alerts. */
    boolean puedeEscribir() {
      return "VENDEDOR".equals(perfil) && !bloqueado;
    }
  }

  /**
   * FOR SHARE makes a concurrent block wait for this insert, or this insert re-read the blocked row: the two
   * never interleave.
   */
  private static final String ABRIR = """
    WITH actor AS (SELECT id, bloqueado FROM gestor.actores WHERE id = $2 FOR SHARE),
         nueva AS (INSERT INTO gestor.sesiones (id, actor, huella) SELECT $1, id, $3 FROM actor WHERE NOT bloqueado RETURNING id)
    SELECT (SELECT count(*) FROM actor) AS existe, (SELECT count(*) FROM nueva) AS abierta""";
  private static final String CANCELAR = "UPDATE gestor.sesiones SET terminada_en = now(), motivo_fin = 'NO_PUBLICADA' WHERE id = $1";
  private static final String PERMISOS = "SELECT id, perfil, bloqueado FROM gestor.actores WHERE id = $1";
  private static final String BLOQUEAR = "UPDATE gestor.actores SET bloqueado = true WHERE id = $1";
  private static final String TERMINAR_SESIONES = """
    UPDATE gestor.sesiones SET terminada_en = now(), motivo_fin = 'BLOQUEO'
    WHERE actor = $1 AND terminada_en IS NULL""";

  private final SqlClient sql;

  Actores(SqlClient sql) {
    this.sql = sql;
  }

  Future<Apertura> abrirSesion(String sesion, String actor, String huella) {
    return sql.preparedQuery(ABRIR).execute(Tuple.of(java.util.UUID.fromString(sesion), actor, huella)).map(rows -> {
      Row row = rows.iterator().next();
      if (row.getLong("abierta") == 1) return Apertura.ABIERTA;
      return row.getLong("existe") == 0 ? Apertura.DESCONOCIDO : Apertura.BLOQUEADO;
    });
  }

  /** A session whose event the broker did not take is closed again: the App was told to retry. */
  Future<Void> cancelarSesion(String sesion) {
    return sql.preparedQuery(CANCELAR).execute(Tuple.of(java.util.UUID.fromString(sesion))).mapEmpty();
  }

  Future<Optional<Permisos>> permisos(String actor) {
    return sql.preparedQuery(PERMISOS).execute(Tuple.of(actor)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new Permisos(row.getString("id"), row.getString("perfil"), row.getBoolean("bloqueado")));
    });
  }

  /**
   * Blocks the actor, then ends its open sessions: two statements in this order, so the second sees every session
   * committed before the block (a session insert waits on the blocked row). Both are idempotent.
   *
   * @return how many sessions this call ended, or empty for an unknown actor
   */
  Future<Optional<Integer>> bloquear(String actor) {
    return sql.preparedQuery(BLOQUEAR).execute(Tuple.of(actor)).compose(blocked -> blocked.rowCount() == 0
      ? Future.succeededFuture(Optional.empty())
      : sql.preparedQuery(TERMINAR_SESIONES).execute(Tuple.of(actor)).map(ended -> Optional.of(ended.rowCount())));
  }
}
