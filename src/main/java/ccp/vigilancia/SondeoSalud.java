package ccp.vigilancia;

import ccp.app.RoleContext;
import ccp.cadena.Etapa;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.kafka.admin.KafkaAdminClient;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * SondeoSalud, the Monitor's other scheduled thread, run only by the leader: every {@code vigilancia.sondeo-ms} it asks
 * the broker whether Facturación and Validación de despacho still have a live consumer in their queues. A stage with
 * none answers nothing, so its stages in flight are signalled at once instead of at their deadline; BarridoPlazos
 * publishes the signals (RegistroSenales keeps them single).
 */
final class SondeoSalud extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SondeoSalud.class);
  private static final List<Etapa> SONDEADAS = List.of(Etapa.FACTURACION, Etapa.DESPACHO);

  /** A stage started less than a second ago may not have reached its consumer yet: it is left to its deadline. */
  private static final String SENALAR = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT pedido, etapa, intento, 'SONDEO_SIN_RESPUESTA' FROM cadena.cadena_etapa
    WHERE etapa = $1 AND estado = 'EN_CURSO' AND en_curso_desde < now() - interval '1 second'
    LIMIT 500
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  private final RoleContext role;
  private KafkaAdminClient admin;
  private long timer;
  private boolean sondeando;

  SondeoSalud(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    admin = KafkaAdminClient.create(vertx, Map.of("bootstrap.servers", role.settings().text("kafka.bootstrap")));
    timer = vertx.setPeriodic(role.settings().integer("vigilancia.sondeo-ms"), id -> sondear());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return admin.close(5_000);
  }

  private void sondear() {
    if (sondeando) return;
    sondeando = true;
    admin.describeConsumerGroups(SONDEADAS.stream().map(Etapa::cola).toList())
      .compose(grupos -> Future.all(SONDEADAS.stream().map(etapa -> {
        var grupo = grupos.get(etapa.cola());
        boolean viva = grupo != null && !grupo.getMembers().isEmpty();
        if (viva) return Future.<Void>succeededFuture();
        return role.sql().preparedQuery(SENALAR).execute(Tuple.of(etapa.name())).<Void>map(rows -> {
          if (rows.rowCount() > 0) LOG.warn("{} has no live consumer: {} stages in flight signalled early", etapa, rows.rowCount());
          return null;
        });
      }).toList()))
      .onFailure(err -> LOG.warn("Health probe failed: {}", err.toString()))
      .onComplete(x -> sondeando = false);
  }
}
