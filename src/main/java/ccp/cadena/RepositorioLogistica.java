package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Logística's list of finished orders: reads only, its statement in {@link SqlCadena}. */
final class RepositorioLogistica {

  private final SqlClient sql;

  RepositorioLogistica(SqlClient sql) {
    this.sql = sql;
  }

  /** A finished order as Logística lists it, with its key in the list's order. */
  record PedidoListo(UUID pedido, OffsetDateTime recibido, JsonObject json) {}

  /** Logística's finished orders after the order {@code despuesDe} that arrived at {@code desde}, oldest first. */
  Future<List<PedidoListo>> pedidosListos(OffsetDateTime desde, UUID despuesDe, int limite) {
    return sql.preparedQuery(SqlCadena.PEDIDOS_LISTOS).execute(Tuple.of(desde, despuesDe, limite)).map(rows -> {
      List<PedidoListo> listos = new ArrayList<>();
      for (Row row : rows) {
        listos.add(new PedidoListo(row.getUUID("pedido"), row.getOffsetDateTime("recibido_en"), new JsonObject()
          .put("pedido", row.getUUID("pedido").toString())
          .put("actor", row.getString("actor"))
          .put("lineas", row.getJsonArray("lineas"))
          .put("terminada_en", RepositorioCadena.text(row.getOffsetDateTime("terminada_en")))
          .put("recibido_en", RepositorioCadena.text(row.getOffsetDateTime("recibido_en")))));
      }
      return listos;
    });
  }
}
