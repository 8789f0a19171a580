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
 * The Bandeja's items ({@code cadena.bandeja}, statements in {@link SqlBandeja}), and the only class that writes them.
 * An escalation's item is part of its stage's state: it is filed closed if the stage was confirmed meanwhile, read in
 * the same statement (a confirmation between two statements would leave it open for good), and a late confirmation
 * closes it ({@link #cerrarPorConfirmacion}, the Coordinador's); its retry re-arms the stage through
 * {@link RepositorioCadena#reintentarEscalada}.
 */
final class RepositorioBandeja {

  private final SqlClient sql;

  RepositorioBandeja(SqlClient sql) {
    this.sql = sql;
  }

  /** R11: files an escalation in the Bandeja once per id; answers when it was filed, empty if it already was. */
  Future<Optional<OffsetDateTime>> archivarEscalada(UUID id, UUID pedido, Etapa etapa, JsonObject detalle) {
    return sql.preparedQuery(SqlBandeja.ITEM_ESCALADA).execute(Tuple.of(id, pedido, etapa.name(), detalle))
      .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getOffsetDateTime("abierta_en")));
  }

  /** Files a dead letter of {@code cola.fallidos} in the Bandeja once per id. */
  Future<Void> archivarFallido(UUID id, JsonObject detalle) {
    return sql.preparedQuery(SqlBandeja.FALLIDO).execute(Tuple.of(id, detalle)).mapEmpty();
  }

  /** Why a retried item closed by itself: after who retried it, its {@code cierre} says so. */
  static final String ETAPA_VOLVIO = "la etapa volvió y confirmó";

  /** The stage confirmed: its escalations' items close, an open one with {@code motivo}, a retried one as {@link #ETAPA_VOLVIO}. */
  Future<Void> cerrarPorConfirmacion(UUID pedido, Etapa etapa, String motivo) {
    return sql.preparedQuery(SqlBandeja.CERRAR_CONFIRMADA).execute(Tuple.of(pedido, etapa.name(), motivo, ETAPA_VOLVIO)).mapEmpty();
  }

  /** Whether this call closed the open item. */
  Future<Boolean> cerrarItem(UUID id, String motivo) {
    return sql.preparedQuery(SqlBandeja.CERRAR).execute(Tuple.of(id, motivo)).map(rows -> rows.size() == 1);
  }

  /** Whether this call took the open escalation and marked it REINTENTADO. */
  Future<Boolean> marcarReintento(UUID id, String quien) {
    return sql.preparedQuery(SqlBandeja.MARCAR_REINTENTO).execute(Tuple.of(id, "reintentado por " + quien))
      .map(rows -> rows.size() == 1);
  }

  /** Changes whenever an item enters the Bandeja or leaves its open ones (the console's live list). */
  Future<String> versionBandeja() {
    return sql.query(SqlBandeja.VERSION).execute().map(rows -> rows.iterator().next().getString("version"));
  }

  /** The chain of the item's order, with deadlines and signals; empty when the item has no order or it has no chain. */
  Future<Optional<JsonObject>> cadenaDelItem(UUID item) {
    return sql.preparedQuery(SqlBandeja.CADENA_DEL_ITEM).execute(Tuple.of(item))
      .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getJsonObject("cadena")));
  }

  Future<Long> abiertosBandeja() {
    return sql.query(SqlBandeja.ABIERTOS).execute().map(rows -> rows.iterator().next().getLong("abiertos"));
  }

  Future<JsonArray> itemsBandeja(String estado, int limit) {
    return sql.preparedQuery(SqlBandeja.LISTAR).execute(Tuple.of(estado, limit)).map(rows -> {
      JsonArray items = new JsonArray();
      for (Row row : rows) items.add(itemJson(row));
      return items;
    });
  }

  Future<Optional<JsonObject>> itemBandeja(UUID id) {
    return sql.preparedQuery(SqlBandeja.LEER).execute(Tuple.of(id))
      .map(rows -> rows.size() == 0 ? Optional.<JsonObject>empty() : Optional.of(itemJson(rows.iterator().next())));
  }

  /** A Bandeja item as its API shows it. */
  private static JsonObject itemJson(Row row) {
    return new JsonObject()
      .put("id", row.getUUID("id").toString())
      .put("tipo", row.getString("tipo"))
      .put("pedido", row.getUUID("pedido") == null ? null : row.getUUID("pedido").toString())
      .put("etapa", row.getString("etapa"))
      .put("detalle", row.getJsonObject("detalle"))
      .put("estado", row.getString("estado"))
      .put("abierta_en", RepositorioCadena.text(row.getOffsetDateTime("abierta_en")))
      .put("cerrada_en", RepositorioCadena.text(row.getOffsetDateTime("cerrada_en")))
      .put("cierre", row.getString("cierre"));
  }
}
