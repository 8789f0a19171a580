package ccp.etapas;

import ccp.cadena.ResultadoEtapa;
import ccp.platform.db.Combiner;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/** Validación de despacho: records the dispatch check of the order (one per order). */
final class ValidacionDespacho implements Efecto {

  /** EtapaProcesada and the check of every order of a batch in one statement. */
  static final String VALIDAR = Efecto.registroPorLote("despacho", "DESPACHO", "validaciones");

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
    return sql.preparedQuery(COMPENSAR).execute(Tuple.of(pedido)).map(x -> new Resultado(ResultadoEtapa.COMPENSADA, "cadena detenida"));
  }
}
