package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Pedidos' read of an order's chain ({@link CadenaDePedido}): reads only, statements in {@link SqlCadena}. */
final class RepositorioCadenaDePedido implements CadenaDePedido {

  private final SqlClient sql;

  RepositorioCadenaDePedido(SqlClient sql) {
    this.sql = sql;
  }

  @Override
  public Future<String> version(List<UUID> pedidos) {
    return sql.preparedQuery(SqlCadena.VERSION_DE_PEDIDOS).execute(Tuple.of(pedidos.toArray(UUID[]::new)))
      .map(rows -> rows.iterator().next().getString("version"));
  }

  @Override
  public Future<Optional<JsonObject>> de(UUID pedido) {
    return sql.preparedQuery(SqlCadena.CADENA_DE_PEDIDO).execute(Tuple.of(pedido)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row primera = rows.iterator().next();
      JsonArray etapas = new JsonArray();
      for (Row row : rows) {
        if (row.getString("etapa") == null) continue;
        etapas.add(new JsonObject()
          .put("etapa", row.getString("etapa"))
          .put("estado", row.getString("estado"))
          .put("intento", row.getInteger("intento"))
          .put("en_curso_desde", RepositorioCadena.text(row.getOffsetDateTime("en_curso_desde")))
          .put("reintento_desde", RepositorioCadena.text(row.getOffsetDateTime("reintento_desde")))
          .put("actualizada_en", RepositorioCadena.text(row.getOffsetDateTime("actualizada_en"))));
      }
      return Optional.of(new JsonObject()
        .put("estado", primera.getString("cadena"))
        .put("iniciada_en", RepositorioCadena.text(primera.getOffsetDateTime("iniciada_en")))
        .put("terminada_en", RepositorioCadena.text(primera.getOffsetDateTime("terminada_en")))
        .put("etapas", etapas));
    });
  }
}
