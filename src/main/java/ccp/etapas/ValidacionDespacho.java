package ccp.etapas;

import ccp.platform.db.Combiner;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/** Validación de despacho: records the dispatch check of the order (one per order). */
final class ValidacionDespacho implements Efecto {

  /** EtapaProcesada and the check of every order of a batch in one statement, as Facturación issues invoices. */
  static final String VALIDAR = """
    WITH entrada AS (
           SELECT t.pedido, t.lineas, t.unidades FROM jsonb_to_recordset($1::jsonb) AS t (pedido uuid, lineas jsonb, unidades integer)),
         marca AS (
           INSERT INTO despacho.etapa_procesada (pedido, etapa, resultado)
           SELECT pedido, 'DESPACHO', 'COMPLETADA' FROM entrada ORDER BY pedido
           ON CONFLICT (pedido, etapa) DO NOTHING
           RETURNING pedido, resultado, motivo),
         validacion AS (
           INSERT INTO despacho.validaciones (pedido, lineas, unidades)
           SELECT entrada.pedido, entrada.lineas, entrada.unidades FROM entrada JOIN marca USING (pedido))
    SELECT pedido, resultado, motivo FROM marca
    UNION ALL
    SELECT p.pedido, p.resultado, p.motivo FROM despacho.etapa_procesada p JOIN entrada USING (pedido)
    WHERE p.etapa = 'DESPACHO'""";

  /** Nothing to undo; the stage's key is taken so that a command still in flight no longer validates. */
  private static final String COMPENSAR = """
    INSERT INTO despacho.etapa_procesada (pedido, etapa, resultado, motivo) VALUES ($1, 'DESPACHO', 'RECHAZADA', 'cadena detenida')
    ON CONFLICT (pedido, etapa) DO NOTHING""";

  private final SqlClient sql;
  private final Combiner<UUID, Orden, Resultado> validaciones;

  ValidacionDespacho(SqlClient sql, int loteMax) {
    this.sql = sql;
    this.validaciones = new Combiner<>(loteMax, Orden::pedido, lote -> Efecto.porLote(sql, VALIDAR, lote));
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    return validaciones.submit(new Orden(pedido, lineas)).compose(r -> Efecto.respuesta(pedido, r));
  }

  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(COMPENSAR).execute(Tuple.of(pedido)).map(x -> new Resultado(Resultado.COMPENSADA, "cadena detenida"));
  }
}
