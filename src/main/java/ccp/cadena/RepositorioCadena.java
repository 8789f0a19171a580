package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** RepositorioCadena ({@code cadena.cadenas}, {@code cadena.cadena_etapa}): the chain's guarded state. */
final class RepositorioCadena {

  /** The stage in flight and its attempt: what a command must carry. */
  record EnCurso(Etapa etapa, int intento) {}

  /**
   * Steps 2–4 in one statement: the chain and its three stage rows, the first EN_CURSO with its deadline. A chain
   * that exists already is left as it is and answers its stage in flight (its command may never have been sent).
   */
  private static final String INICIAR = """
    WITH nueva AS (
           INSERT INTO cadena.cadenas (pedido, lineas, estado) VALUES ($1, $2, 'EN_CURSO')
           ON CONFLICT (pedido) DO NOTHING
           RETURNING pedido),
         etapas AS (
           INSERT INTO cadena.cadena_etapa (pedido, etapa, orden, estado, intento, plazo)
           SELECT nueva.pedido, e.etapa, e.orden,
                  CASE WHEN e.orden = 1 THEN 'EN_CURSO' ELSE 'PENDIENTE' END,
                  CASE WHEN e.orden = 1 THEN 1 ELSE 0 END,
                  CASE WHEN e.orden = 1 THEN now() + make_interval(secs => $3::float8 / 1000) END
           FROM nueva, (VALUES ('FACTURACION', 1), ('INVENTARIO', 2), ('DESPACHO', 3)) AS e (etapa, orden))
    SELECT 'FACTURACION' AS etapa, 1 AS intento FROM nueva
    UNION ALL
    SELECT etapa, intento FROM cadena.cadena_etapa WHERE pedido = $1 AND estado IN ('EN_CURSO', 'EN_REINTENTO')""";

  private final SqlClient sql;

  RepositorioCadena(SqlClient sql) {
    this.sql = sql;
  }

  Future<List<EnCurso>> iniciar(UUID pedido, JsonArray lineas, long plazoMs) {
    return sql.preparedQuery(INICIAR).execute(Tuple.of(pedido, lineas, plazoMs)).map(rows -> {
      List<EnCurso> enCurso = new ArrayList<>();
      for (Row row : rows) enCurso.add(new EnCurso(Etapa.valueOf(row.getString("etapa")), row.getInteger("intento")));
      return enCurso;
    });
  }
}
