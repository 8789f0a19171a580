package ccp.gestor;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.Optional;

/** The Gestor's actors ({@code gestor.actores}). */
final class Actores {

  record Estado(String perfil, boolean bloqueado) {}

  private static final String ESTADO = "SELECT perfil, bloqueado FROM gestor.actores WHERE id = $1";

  private final SqlClient sql;

  Actores(SqlClient sql) {
    this.sql = sql;
  }

  Future<Optional<Estado>> estado(String actor) {
    return sql.preparedQuery(ESTADO).execute(Tuple.of(actor)).map(Actores::first);
  }

  private static Optional<Estado> first(RowSet<Row> rows) {
    if (rows.size() == 0) return Optional.empty();
    Row row = rows.iterator().next();
    return Optional.of(new Estado(row.getString("perfil"), row.getBoolean("bloqueado")));
  }
}
