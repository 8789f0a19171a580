package ccp.carga.suelo;

import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.Iterator;

/**
 * The floor of verifying a session: per record one primary-key SELECT of the vendedor's registered device, and for a
 * session from another device one alert record of the same size, acknowledged before the record counts as done.
 */
final class VerificadorSuelo extends ConsumidorSuelo {

  private static final String REGISTRADA = "SELECT huella FROM seguridad.suelo_registro WHERE vendedor = $1";

  private final SqlClient sql;

  VerificadorSuelo(KafkaConfig kafka, SqlClient sql) {
    super(kafka, Topics.SESION_ABIERTA, "suelo.verificador");
    this.sql = sql;
  }

  @Override
  Future<?> procesar(KafkaConsumerRecord<String, String> record) {
    String huella = record.value().substring(0, record.value().indexOf(' '));
    return sql.preparedQuery(REGISTRADA).execute(Tuple.of(record.key())).compose(rows -> conocida(rows, huella)
      ? Future.succeededFuture()
      : publisher().publishEncoded(Topics.ALERTA_SEGURIDAD, record.key(), record.value()));
  }

  private static boolean conocida(RowSet<Row> rows, String huella) {
    Iterator<Row> it = rows.iterator();
    return it.hasNext() && it.next().getString("huella").equals(huella);
  }
}
