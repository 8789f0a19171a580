package ccp.vigilancia;

import ccp.cadena.Cadena;
import ccp.cadena.Etapa;
import ccp.cadena.RegistroSenales;
import ccp.platform.async.PeriodicTask;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.kafka.admin.KafkaAdminClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * SondeoSalud, the Monitor's other scheduled thread, run only by the leader: every {@code vigilancia.sondeo-ms} it asks
 * the broker whether Facturación and Validación de despacho still have a live consumer in their queues. A stage with
 * none answers nothing, so its stages in flight are signalled at once instead of at their deadline; BarridoPlazos
 * publishes the signals (RegistroSenales keeps them single).
 */
final class SondeoSalud extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SondeoSalud.class);
  private static final List<Etapa> SONDEADAS = List.of(Etapa.FACTURACION, Etapa.DESPACHO);

  private final RoleContext role;
  private final VigilanciaConfig config;
  private RegistroSenales registro;
  private KafkaAdminClient admin;
  private PeriodicTask sondeo;

  SondeoSalud(RoleContext role, VigilanciaConfig config) {
    this.role = role;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    registro = Cadena.registroSenales(role.sql());
    admin = KafkaAdminClient.create(vertx, role.kafka().client());
    sondeo = PeriodicTask.every(vertx, config.sondeoMs(), "Health probe", this::sondear);
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    sondeo.cancel();
    return admin.close(5_000);
  }

  private Future<?> sondear() {
    return admin.describeConsumerGroups(SONDEADAS.stream().map(Etapa::cola).toList())
      .compose(grupos -> Future.all(SONDEADAS.stream().map(etapa -> {
        var grupo = grupos.get(etapa.cola());
        boolean viva = grupo != null && !grupo.getMembers().isEmpty();
        if (viva) return Future.<Void>succeededFuture();
        return registro.senalarSinRespuesta(etapa).<Void>map(senaladas -> {
          if (senaladas > 0) LOG.warn("{} has no live consumer: {} stages in flight signalled early", etapa, senaladas);
          return null;
        });
      }).toList()));
  }
}
