package ccp.carga.suelo;

import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/**
 * The floor of a stage of the order chain: per record one statement that records the order once in the stage's own
 * table (as the stage's EtapaProcesada with its effect), then the record passed on, acknowledged, to the next stage.
 * Facturación, Inventario and Despacho in a row, each as its own login role, the last one's record on
 * {@code pedido.listo}.
 */
final class EtapaSuelo extends ConsumidorSuelo {

  enum Paso {
    FACTURACION("facturacion", Topics.ESCRITURA_REALIZADA, Topics.ETAPA_EJECUTAR),
    INVENTARIO("inventario", Topics.ETAPA_EJECUTAR, Topics.ETAPA_COMPLETADA),
    DESPACHO("despacho", Topics.ETAPA_COMPLETADA, Topics.PEDIDO_LISTO);

    private final String rol;
    private final String entrada;
    private final String salida;

    Paso(String rol, String entrada, String salida) {
      this.rol = rol;
      this.entrada = entrada;
      this.salida = salida;
    }

    String rol() {
      return rol;
    }

    String entrada() {
      return entrada;
    }

    private String tabla() {
      return rol + ".suelo_etapa";
    }
  }

  private final SqlClient sql;
  private final Paso paso;
  private final String hacer;

  EtapaSuelo(KafkaConfig kafka, SqlClient sql, Paso paso) {
    super(kafka, paso.entrada, "suelo." + paso.rol);
    this.sql = sql;
    this.paso = paso;
    this.hacer = "INSERT INTO " + paso.tabla() + " (pedido, valor) VALUES ($1, $2) ON CONFLICT (pedido) DO NOTHING";
  }

  static Future<?> tabla(SqlClient sql, Paso paso) {
    return sql.query("CREATE TABLE IF NOT EXISTS " + paso.tabla()
      + " (pedido text PRIMARY KEY, valor text NOT NULL, hecha_en timestamptz NOT NULL DEFAULT now())").execute();
  }

  @Override
  Future<?> procesar(KafkaConsumerRecord<String, String> record) {
    return sql.preparedQuery(hacer).execute(Tuple.of(record.key(), record.value().substring(0, Math.min(64, record.value().length()))))
      .compose(x -> publisher().publishEncoded(paso.salida, record.key(), record.value()));
  }
}
