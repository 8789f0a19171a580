package ccp.etapas;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * Facturación's effect on an order, as the order's reader sees it: its invoice and the credit note that compensated it.
 * Read only, with the reader's own login (Pedidos, granted {@code lector_facturas}: only these columns), through
 * {@link Etapas#comprobantes}.
 */
public final class Comprobantes {

  /** A credit note exists only for an invoice (its foreign key), so one row answers both. */
  private static final String DE_PEDIDO = """
    SELECT f.unidades, f.emitida_en, n.motivo, n.emitida_en AS nota_emitida_en
    FROM facturacion.facturas f LEFT JOIN facturacion.notas_credito n ON n.pedido = f.pedido
    WHERE f.pedido = $1""";

  private final SqlClient sql;

  Comprobantes(SqlClient sql) {
    this.sql = sql;
  }

  /** {@code {factura: {unidades, emitida_en} | null, nota_credito: {motivo, emitida_en} | null}}. */
  public Future<JsonObject> de(UUID pedido) {
    return sql.preparedQuery(DE_PEDIDO).execute(Tuple.of(pedido)).map(rows -> {
      JsonObject comprobantes = new JsonObject().putNull("factura").putNull("nota_credito");
      if (rows.size() == 0) return comprobantes;
      Row row = rows.iterator().next();
      comprobantes.put("factura", new JsonObject().put("unidades", row.getInteger("unidades"))
        .put("emitida_en", text(row.getOffsetDateTime("emitida_en"))));
      if (row.getOffsetDateTime("nota_emitida_en") != null) {
        comprobantes.put("nota_credito", new JsonObject().put("motivo", row.getString("motivo"))
          .put("emitida_en", text(row.getOffsetDateTime("nota_emitida_en"))));
      }
      return comprobantes;
    });
  }

  private static String text(OffsetDateTime at) {
    return at.toInstant().toString();
  }
}
