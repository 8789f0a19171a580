package ccp.seguridad;

import ccp.platform.role.RoleContext;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.metrics.AsrTimers;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * ConsumidorAlertas of the Notificador a seguridad (A11–A12): takes each alert from {@code cola.notificador} and
 * notifies the security area exactly once per {@code id_alerta} — stored for the listing and, with a webhook
 * configured, POSTed to it. ASR-1 and ASR-2 end here: {@code asr1} records t0 → notified, {@code asr2} t_det → notified.
 */
final class ConsumidorAlertas extends ConsumerVerticle {

  static final String COLA = "cola.notificador";

  private final RoleContext role;
  private final SeguridadConfig config;
  private Avisos avisos;
  private EntregaWebhook webhook;
  private Timer asr1;
  private Timer asr2;
  private boolean stopped;

  ConsumidorAlertas(RoleContext role, SeguridadConfig config) {
    super(role.kafka(), role.health(), COLA, Topics.ALERTA_SEGURIDAD);
    this.role = role;
    this.config = config;
  }

  @Override
  protected void prepare() {
    avisos = new Avisos(role.sql());
    asr1 = AsrTimers.asr1(role.registry(), config.asr1Budget());
    asr2 = AsrTimers.asr2(role.registry(), config.asr2Budget());
    webhook = config.webhook().map(destino -> new EntregaWebhook(vertx, destino)).orElse(null);
  }

  @Override
  protected void release() {
    stopped = true;
    if (webhook != null) webhook.close();
  }

  @Override
  protected Future<Void> handle(Envelope alerta) {
    EventTypes.require(alerta, EventTypes.ALERTA_SEGURIDAD, Topics.ALERTA_SEGURIDAD);
    JsonObject data = alerta.data();
    UUID idAlerta = UUID.fromString(alerta.textOf("id_alerta"));
    String tipo = alerta.textOf("tipo");
    String actor = alerta.textOf("actor");
    Instant t0 = data.containsKey("t0") ? alerta.instantOf("t0") : null;
    Instant tDet = data.containsKey("t_det") ? alerta.instantOf("t_det") : null;
    if (webhook == null) {
      return avisos.registrar(idAlerta, tipo, actor, data, t0, true)
        .onSuccess(primera -> medir(primera, t0, tDet))
        .mapEmpty();
    }
    return avisos.registrar(idAlerta, tipo, actor, data, t0, false)
      .compose(ignored -> avisos.pendiente(idAlerta))
      .compose(pendiente -> !pendiente
        ? Future.succeededFuture()
        : webhook.entregar(idAlerta, data, error -> avisos.registrarFallo(idAlerta, error), () -> stopped)
            .compose(ok -> avisos.marcarEntregado(idAlerta))
            .onSuccess(primera -> medir(primera, t0, tDet))
            .mapEmpty());
  }

  /** ASR-1 from t0 (A3), ASR-2 from t_det (B6), both to this first notification. */
  private void medir(boolean primeraEntrega, Instant t0, Instant tDet) {
    if (!primeraEntrega) return;
    Instant now = Instant.now();
    if (t0 != null) asr1.record(Duration.between(t0, now));
    if (tDet != null) asr2.record(Duration.between(tDet, now));
  }
}
