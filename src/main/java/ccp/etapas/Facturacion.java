package ccp.etapas;

import ccp.cadena.ResultadoEtapa;
import ccp.platform.db.Combiner;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/**
 * Facturación: issues the order's invoice; compensates it with a credit note when the order is rejected. The invoices
 * of the commands that arrive while one statement is in flight are issued by the next, together ({@link Combiner}).
 */
final class Facturacion implements Efecto {

  /** EtapaProcesada and the invoice of every order of a batch in one statement. */
  static final String FACTURAR = Efecto.registroPorLote("facturacion", "FACTURACION", "facturas");

  /**
   * The stage's own key is taken first ("cadena detenida"), so a command still in flight can no longer invoice; an
   * invoice already issued gets its credit note.
   */
  private static final String COMPENSAR = """
    WITH bloqueo AS (
           INSERT INTO facturacion.etapa_procesada (pedido, etapa, resultado, motivo) VALUES ($1, 'FACTURACION', 'RECHAZADA', 'cadena detenida')
           ON CONFLICT (pedido, etapa) DO NOTHING),
         marca AS (
           INSERT INTO facturacion.etapa_procesada (pedido, etapa, resultado, motivo)
           SELECT pedido, 'COMPENSACION', 'COMPENSADA', 'nota de crédito' FROM facturacion.facturas WHERE pedido = $1
           ON CONFLICT (pedido, etapa) DO NOTHING
           RETURNING resultado, motivo),
         nota AS (INSERT INTO facturacion.notas_credito (pedido, motivo) SELECT $1, 'pedido rechazado' FROM marca)
    SELECT resultado, motivo FROM marca
    UNION ALL
    SELECT resultado, motivo FROM facturacion.etapa_procesada WHERE pedido = $1 AND etapa = 'COMPENSACION'""";

  private final SqlClient sql;
  private final Combiner<UUID, Orden, Resultado> facturas;

  Facturacion(SqlClient sql, int loteMax) {
    this.sql = sql;
    this.facturas = new Combiner<>(loteMax, Orden::pedido, lote -> Efecto.porLote(sql, FACTURAR, lote));
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    return facturas.submit(new Orden(pedido, lineas)).compose(r -> Efecto.respuesta(pedido, r));
  }

  /** A credit note for the invoice; an order never invoiced has nothing to compensate. */
  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(COMPENSAR).execute(Tuple.of(pedido)).map(rows -> rows.size() == 0
      ? new Resultado(ResultadoEtapa.COMPENSADA, "sin factura")
      : Resultado.of(rows));
  }
}
