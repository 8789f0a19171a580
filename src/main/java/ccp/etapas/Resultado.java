package ccp.etapas;

import ccp.cadena.ResultadoEtapa;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

/** What a stage did with a command, as recorded in its EtapaProcesada: the confirmation repeats it. */
record Resultado(ResultadoEtapa resultado, String motivo) {

  /** The first row of a statement that answers {@code resultado, motivo}. */
  static Resultado of(RowSet<Row> rows) {
    Row row = rows.iterator().next();
    return new Resultado(ResultadoEtapa.valueOf(row.getString("resultado")), row.getString("motivo"));
  }
}
