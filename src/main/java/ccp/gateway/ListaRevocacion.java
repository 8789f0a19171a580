package ccp.gateway;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/**
 * The gateway's read of the Lista de revocación (ADR-009) on every request: one indexed lookup, no lock, no cache.
 * A read that starts after the Reacción's revoke committed sees it, on every gateway instance — which is the
 * invariant a local copy fed by notifications could not give. The Gestor's block is read in the same statement.
 */
final class ListaRevocacion {

  enum Estado { PERMITIDO, REVOCADO, BLOQUEADO }

  private static final String ESTADO = """
    SELECT EXISTS (SELECT 1 FROM seguridad.lista_revocacion WHERE actor = $1 AND vence_en > now()) AS revocado,
           EXISTS (SELECT 1 FROM gestor.actores WHERE id = $1 AND bloqueado) AS bloqueado""";

  private final SqlClient sql;

  ListaRevocacion(SqlClient sql) {
    this.sql = sql;
  }

  Future<Estado> estado(String actor) {
    return sql.preparedQuery(ESTADO).execute(Tuple.of(actor)).map(rows -> {
      Row row = rows.iterator().next();
      if (row.getBoolean("revocado")) return Estado.REVOCADO;
      return row.getBoolean("bloqueado") ? Estado.BLOQUEADO : Estado.PERMITIDO;
    });
  }
}
