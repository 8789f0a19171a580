package ccp.etapas;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/** Validación de despacho: records the dispatch check of the order (one per order). */
final class ValidacionDespacho implements Efecto {

  private static final String VALIDAR = """
    WITH marca AS (
           INSERT INTO despacho.etapa_procesada (pedido, etapa, resultado) VALUES ($1, 'DESPACHO', 'COMPLETADA')
           ON CONFLICT (pedido, etapa) DO NOTHING
           RETURNING resultado, motivo),
         validacion AS (INSERT INTO despacho.validaciones (pedido, lineas, unidades) SELECT $1, $2, $3 FROM marca)
    SELECT resultado, motivo FROM marca
    UNION ALL
    SELECT resultado, motivo FROM despacho.etapa_procesada WHERE pedido = $1 AND etapa = 'DESPACHO'""";

  /** Nothing to undo; the stage's key is taken so that a command still in flight no longer validates. */
  private static final String COMPENSAR = """
    INSERT INTO despacho.etapa_procesada (pedido, etapa, resultado, motivo) VALUES ($1, 'DESPACHO', 'RECHAZADA', 'cadena detenida')
    ON CONFLICT (pedido, etapa) DO NOTHING""";

  private final SqlClient sql;

  ValidacionDespacho(SqlClient sql) {
    this.sql = sql;
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    return sql.preparedQuery(VALIDAR).execute(Tuple.of(pedido, lineas, Efecto.unidades(lineas))).map(Resultado::of);
  }

  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(COMPENSAR).execute(Tuple.of(pedido)).map(x -> new Resultado(Resultado.COMPENSADA, "cadena detenida"));
  }
}
