package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;

/**
 * The Bandeja de pedidos escalados ({@code cadena.bandeja}): every change is one conditional statement. An escalation's
 * item is filed by RepositorioCadena, since whether it enters closed depends on its stage's state.
 */
final class Bandeja {

  private static final String FALLIDO = """
    INSERT INTO cadena.bandeja (id, tipo, detalle, estado) VALUES ($1, 'FALLIDO', $2, 'ABIERTO') ON CONFLICT (id) DO NOTHING""";
  private static final String CERRAR_TARDIA = """
    UPDATE cadena.bandeja SET estado = 'CERRADO', cerrada_en = now(), cierre = 'confirmación tardía'
    WHERE pedido = $1 AND etapa = $2 AND tipo = 'ESCALADA' AND estado = 'ABIERTO'""";
  private static final String CERRAR = """
    UPDATE cadena.bandeja SET estado = 'CERRADO', cerrada_en = now(), cierre = $2 WHERE id = $1 AND estado = 'ABIERTO'
    RETURNING id""";
  private static final String MARCAR_REINTENTO = """
    UPDATE cadena.bandeja SET estado = 'REINTENTADO', cerrada_en = now(), cierre = $2
    WHERE id = $1 AND estado = 'ABIERTO' AND tipo = 'ESCALADA'
    RETURNING pedido, etapa""";
  private static final String LISTAR = """
    SELECT id, tipo, pedido, etapa, detalle, estado, abierta_en, cerrada_en, cierre FROM cadena.bandeja
    WHERE estado = $1 ORDER BY abierta_en DESC LIMIT $2""";
  private static final String LEER = """
    SELECT id, tipo, pedido, etapa, detalle, estado, abierta_en, cerrada_en, cierre FROM cadena.bandeja WHERE id = $1""";

  private final SqlClient sql;

  Bandeja(SqlClient sql) {
    this.sql = sql;
  }

  Future<Void> fallido(UUID id, JsonObject detalle) {
    return sql.preparedQuery(FALLIDO).execute(Tuple.of(id, detalle)).mapEmpty();
  }

  Future<Void> cerrarPorConfirmacionTardia(UUID pedido, Etapa etapa) {
    return sql.preparedQuery(CERRAR_TARDIA).execute(Tuple.of(pedido, etapa.name())).mapEmpty();
  }

  Future<Boolean> cerrar(UUID id, String motivo) {
    return sql.preparedQuery(CERRAR).execute(Tuple.of(id, motivo)).map(rows -> rows.size() == 1);
  }

  /** The (pedido, etapa) to retry, if this call took the open escalation. */
  Future<Optional<Row>> marcarReintento(UUID id, String quien) {
    return sql.preparedQuery(MARCAR_REINTENTO).execute(Tuple.of(id, "reintentado por " + quien))
      .map(rows -> rows.size() == 0 ? Optional.<Row>empty() : Optional.of(rows.iterator().next()));
  }

  Future<JsonArray> listar(String estado, int limit) {
    return sql.preparedQuery(LISTAR).execute(Tuple.of(estado, limit)).map(rows -> {
      JsonArray items = new JsonArray();
      for (Row row : rows) items.add(json(row));
      return items;
    });
  }

  Future<Optional<JsonObject>> leer(UUID id) {
    return sql.preparedQuery(LEER).execute(Tuple.of(id))
      .map(rows -> rows.size() == 0 ? Optional.<JsonObject>empty() : Optional.of(json(rows.iterator().next())));
  }

  private static JsonObject json(Row row) {
    return new JsonObject()
      .put("id", row.getUUID("id").toString())
      .put("tipo", row.getString("tipo"))
      .put("pedido", row.getUUID("pedido") == null ? null : row.getUUID("pedido").toString())
      .put("etapa", row.getString("etapa"))
      .put("detalle", row.getJsonObject("detalle"))
      .put("estado", row.getString("estado"))
      .put("abierta_en", text(row.getOffsetDateTime("abierta_en")))
      .put("cerrada_en", text(row.getOffsetDateTime("cerrada_en")))
      .put("cierre", row.getString("cierre"));
  }

  private static String text(OffsetDateTime at) {
    return at == null ? null : at.toInstant().toString();
  }
}
