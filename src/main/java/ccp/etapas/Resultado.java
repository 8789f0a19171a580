package ccp.etapas;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

/** What a stage did with a command, as recorded in its EtapaProcesada: the confirmation repeats it. */
record Resultado(String resultado, String motivo) {

  static final String COMPLETADA = "COMPLETADA";
  static final String RECHAZADA = "RECHAZADA";
  static final String COMPENSADA = "COMPENSADA";

  /** The first row of a statement that answers {@code resultado, motivo}. */
  static Resultado of(RowSet<Row> rows) {
    Row row = rows.iterator().next();
    return new Resultado(row.getString("resultado"), row.getString("motivo"));
  }
}
