package ccp.cadena;

import ccp.platform.async.PeriodicTask;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.metrics.AsrTimers;
import ccp.platform.role.RoleContext;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Reanudador (R6–R11): takes a retry signal from {@code cola.reintentos}, moves the stage to EN_REINTENTO with a new
 * attempt and a wait of {@code reanudador.espera-ms}, and re-sends only that stage. A periodic check escalates the
 * retries that got no confirmation in time (R9) and publishes them on {@code cadena.escalada}. Confirmation and
 * escalation race on the row: each is a conditional update, the first writer wins. Keeping the wait in the row, not in
 * a timer of this process, means a Reanudador that dies mid-wait is replaced by any other one. Both read the chain in
 * the same statement: the stage of an order annulled meanwhile (chain DETENIDO) is neither retried nor escalated.
 */
final class Reanudador extends ConsumerVerticle {

  static final String COLA = "cola.reintentos";

  private final RoleContext role;
  private final CadenaConfig config;
  private RepositorioCadena cadenas;
  private PublicadorComandos comandos;
  private Timer asr4;
  private PeriodicTask chequeo;

  Reanudador(RoleContext role, CadenaConfig config) {
    super(role.kafka(), role.health(), role.registry(), COLA, Topics.COLA_REINTENTOS);
    this.role = role;
    this.config = config;
  }

  @Override
  protected void prepare() {
    cadenas = new RepositorioCadena(role.sql());
    comandos = new PublicadorComandos(publisher());
    asr4 = AsrTimers.asr4(role.registry(), config.asr4Budget());
    long espera = config.esperaReintentoMs();
    chequeo = PeriodicTask.every(vertx, Math.max(50, Math.min(500, espera / 4)), "Escalation check", this::escalarVencidos);
  }

  /** {@link Priority#CHAIN}: the chain yields to the security consumers of its process when they are behind (issue 16). */
  @Override
  protected Priority priority() {
    return Priority.CHAIN;
  }

  @Override
  protected void release() {
    chequeo.cancel();
  }

  /** R6–R8. A signal for an attempt that already moved on (confirmed, or retried) changes nothing. */
  @Override
  protected Future<Void> handle(Envelope senal) {
    EventTypes.require(senal, EventTypes.REINTENTO, Topics.COLA_REINTENTOS);
    UUID pedido = UUID.fromString(senal.textOf("pedido"));
    Etapa etapa = Etapa.valueOf(senal.textOf("etapa"));
    int intento = senal.data().getInteger("intento");
    return cadenas.reintentar(pedido, etapa, intento, config.esperaReintentoMs()).compose(reintento -> reintento.isEmpty()
      ? Future.succeededFuture()
      : comandos.ejecutar(pedido, etapa, reintento.get().intento(), reintento.get().lineas()));
  }

  /** R9, then the escalations whose event is not acknowledged yet (this process or another died before): published again. */
  private Future<Void> escalarVencidos() {
    return cadenas.escalarVencidas()
      .compose(this::publicar)
      .compose(x -> cadenas.escaladasSinPublicar())
      .compose(this::publicar);
  }

  /**
   * R9: {@code cadena.escalada}, key pedido. ASR-4 ends here for the retries nobody confirmed, once the broker has
   * acknowledged the escalation (R6 to R11: from there it is on its way to the Bandeja), not at the commit. One
   * published late (its first publish failed, or its process died) is measured then: that is how long it took.
   */
  private Future<Void> publicar(List<RepositorioCadena.Escalada> escaladas) {
    return Future.all(escaladas.stream().map(e -> {
      JsonObject data = new JsonObject().put("pedido", e.pedido().toString()).put("etapa", e.etapa().name())
        .put("intento", e.intento()).put("motivo", "sin confirmación tras el reintento");
      String id = "ESCALADA:" + e.pedido() + ":" + e.etapa().name() + ":" + e.intento();
      Envelope escalada = new Envelope(UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString(),
        EventTypes.ESCALADA, "/cadena/reanudador", Instant.now(), e.pedido().toString(), data);
      return publisher().publish(Topics.CADENA_ESCALADA, e.pedido().toString(), escalada)
        .onSuccess(ack -> {
          if (e.reintentoDesde() != null) asr4.record(Duration.between(e.reintentoDesde().toInstant(), Instant.now()));
        })
        .compose(ack -> cadenas.escaladaPublicada(e.pedido(), e.etapa()));
    }).toList()).mapEmpty();
  }
}
