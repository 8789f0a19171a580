package ccp.seguridad;

import ccp.platform.async.Backoff;
import ccp.platform.async.PeriodicTask;
import ccp.platform.http.ServiceClient;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.role.RoleContext;
import ccp.seguridad.RegistroReacciones.Paso;
import ccp.seguridad.RegistroReacciones.Reaccion;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * OrquestadorReaccion, the Reacción ante acceso indebido (B7–B14): opens the reaction (unique id_escritura), then
 * revokes in the Lista de revocación, blocks in the Gestor, compensates in Pedidos and notifies through
 * PublicadorAlertas — in that order, each step recorded before the next. Every step's effect is idempotent and every
 * record is a conditional update, so a reaction resumed after a crash (by this process or the standby) repeats no
 * effect. The reactions in progress are this verticle's own state.
 */
final class OrquestadorReaccion extends VerticleBase {

  /** Local event-bus address on which the Detector asks for a reaction (B6). */
  static final String DIRECCION = "ccp.seguridad.reaccion";

  private static final Logger LOG = LoggerFactory.getLogger(OrquestadorReaccion.class);
  private static final Backoff REINTENTO = new Backoff(50, 2_000);

  private final RoleContext role;
  private final SeguridadConfig config;
  private final Set<UUID> enCurso = new HashSet<>();
  private RegistroReacciones registro;
  private ServiceClient servicios;
  private EventPublisher publisher;
  private PublicadorAlertas alertas;
  private PeriodicTask barrido;
  private boolean detenido;

  OrquestadorReaccion(RoleContext role, SeguridadConfig config) {
    this.role = role;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    registro = new RegistroReacciones(role.sql());
    servicios = new ServiceClient(vertx, role.http(), role.signer());
    publisher = EventPublisher.create(vertx, role.kafka());
    alertas = new PublicadorAlertas(publisher);
    barrido = PeriodicTask.every(vertx, Math.max(100, config.reanudarTrasMs() / 2), "Looking for stalled reactions",
      this::reanudarEstancadas);
    return vertx.eventBus().<JsonObject>localConsumer(DIRECCION, this::solicitud).completion();
  }

  @Override
  public Future<?> stop() {
    detenido = true;
    barrido.cancel();
    servicios.close();
    return publisher.close();
  }

  /** B7: the reply tells the Detector the reaction is durably open, so it may commit its offset. */
  private void solicitud(Message<JsonObject> message) {
    Reaccion reaccion = Reaccion.fromJson(message.body());
    registro.abrir(reaccion).onSuccess(abierta -> {
      message.reply(new JsonObject().put("abierta", abierta));
      if (abierta) ejecutar(reaccion);
    }).onFailure(err -> message.fail(503, err.getMessage()));
  }

  private Future<?> reanudarEstancadas() {
    return registro.estancadas(config.reanudarTrasMs()).onSuccess(list -> list.forEach(r -> {
      if (!enCurso.contains(r.idEscritura())) {
        LOG.info("Resuming reaction to write {} of {} after {}", r.idEscritura(), r.actor(), r.paso());
        ejecutar(r);
      }
    }));
  }

  private void ejecutar(Reaccion reaccion) {
    enCurso.add(reaccion.idEscritura());
    siguiente(reaccion).onComplete(ar -> {
      enCurso.remove(reaccion.idEscritura());
      if (ar.failed() && !detenido) LOG.warn("Reaction to write {} stopped: {}", reaccion.idEscritura(), ar.cause().toString());
    });
  }

  private Future<Void> siguiente(Reaccion r) {
    return switch (r.paso()) {
      case ABIERTA -> paso(r, Paso.REVOCADA, () -> registro.revocar(r, config.revocacionHoras()));
      case REVOCADA -> paso(r, Paso.BLOQUEADA, () -> llamar("gestor", config.gestorUrl(),
        "/interno/actores/" + ServiceClient.segment(r.actor()) + "/bloqueo", new JsonObject()));
      case BLOQUEADA -> paso(r, Paso.COMPENSADA, () -> llamar("pedidos", config.pedidosUrl(),
        "/interno/pedidos/" + ServiceClient.segment(r.pedido()) + "/anulacion",
        new JsonObject().put("motivo", "escritura indebida (reacción " + r.idEscritura() + ")")));
      case COMPENSADA -> paso(r, Paso.NOTIFICADA, () -> alertas.accesoIndebido(r));
      case NOTIFICADA -> Future.succeededFuture();
    };
  }

  /** Runs the step's effect until it succeeds, records it, and goes on — unless another runner recorded it first. */
  private Future<Void> paso(Reaccion r, Paso hecho, Supplier<Future<Void>> efecto) {
    return reintentando(efecto, r, hecho, 1)
      .compose(x -> registro.avanzar(r, hecho))
      .compose(avanzo -> avanzo ? siguiente(r.en(hecho)) : Future.succeededFuture());
  }

  private Future<Void> reintentando(Supplier<Future<Void>> efecto, Reaccion r, Paso hecho, int intento) {
    return efecto.get().recover(err -> {
      if (detenido) return Future.failedFuture(err);
      long espera = REINTENTO.delayMs(intento);
      LOG.warn("Reaction {}: step to {} failed ({}); retrying in {} ms", r.idEscritura(), hecho, err.getMessage(), espera);
      return vertx.timer(espera).compose(x -> reintentando(efecto, r, hecho, intento + 1));
    });
  }

  /**
   * An unknown actor or order (404) has nothing left to block or annul: the step is done. Another final refusal
   * (4xx) cannot change with retries either: it is logged and the reaction goes on, so the area is still notified.
   */
  private Future<Void> llamar(String rol, String base, String path, JsonObject body) {
    return servicios.post(rol, base, path, body).<Void>mapEmpty().recover(err -> {
      if (err instanceof ServiceClient.Failure f && f.isFinal()) {
        if (f.status() != 404) LOG.error("Reaction step refused for good, going on: {}", f.getMessage());
        return Future.succeededFuture();
      }
      return Future.failedFuture(err);
    });
  }
}
