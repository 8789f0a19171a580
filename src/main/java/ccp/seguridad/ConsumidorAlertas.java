package ccp.seguridad;

import ccp.platform.role.RoleContext;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.metrics.AsrTimers;
import ccp.seguridad.ssf.Transmisor;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * ConsumidorAlertas of the Notificador a seguridad (A11–A12): takes each alert from {@code cola.notificador} and
 * notifies the security area exactly once per {@code id_alerta}: stored where the area reads it ({@code GET /v1/alertas}),
 * and with it one SET per event for each Shared Signals stream (the {@link Transmisor}), which are pushed or
 * polled from those rows on their own schedule — a receiver that is down never holds this consumer back. ASR-1 and
 * ASR-2 end here: {@code asr1} records t0 → stored, {@code asr2} t_det → stored.
 */
final class ConsumidorAlertas extends ConsumerVerticle {

  static final String COLA = "cola.notificador";

  private final RoleContext role;
  private final SeguridadConfig config;
  private Avisos avisos;
  private Transmisor transmisor;
  private Timer asr1;
  private Timer asr2;

  ConsumidorAlertas(RoleContext role, SeguridadConfig config) {
    super(role.kafka(), role.health(), role.registry(), COLA, Topics.ALERTA_SEGURIDAD, Priority.SECURITY);
    this.role = role;
    this.config = config;
  }

  @Override
  protected void prepare() {
    avisos = new Avisos(role.sql());
    transmisor = new Transmisor(vertx, role.sql(), config.ssf().issuer());
    asr1 = AsrTimers.asr1(role.registry(), config.asr1Budget());
    asr2 = AsrTimers.asr2(role.registry(), config.asr2Budget());
  }

  /**
   * The alert is stored, then its SETs (each (stream, jti) once): a crash between the two redelivers the record, which
   * stores the SETs then. The offset is committed only after both.
   */
  @Override
  protected Future<Void> handle(Envelope alerta) {
    EventTypes.require(alerta, EventTypes.ALERTA_SEGURIDAD, Topics.ALERTA_SEGURIDAD);
    JsonObject data = alerta.data();
    UUID idAlerta = UUID.fromString(alerta.textOf("id_alerta"));
    String tipo = alerta.textOf("tipo");
    String actor = alerta.textOf("actor");
    Instant t0 = data.containsKey("t0") ? alerta.instantOf("t0") : null;
    Instant tDet = data.containsKey("t_det") ? alerta.instantOf("t_det") : null;
    return avisos.registrar(idAlerta, tipo, actor, data, t0)
      .onSuccess(primera -> medir(primera, t0, tDet))
      .compose(primera -> transmisor.encolar(idAlerta, data, alerta.time()));
  }

  /** ASR-1 from t0 (A3), ASR-2 from t_det (B6), both to this first notification. */
  private void medir(boolean primera, Instant t0, Instant tDet) {
    if (!primera) return;
    Instant now = Instant.now();
    if (t0 != null) asr1.record(Duration.between(t0, now));
    if (tDet != null) asr2.record(Duration.between(tDet, now));
  }
}
