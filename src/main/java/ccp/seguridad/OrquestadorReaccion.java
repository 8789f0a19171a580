package ccp.seguridad;

import ccp.platform.async.Backoff;
import ccp.platform.async.PeriodicTask;
import ccp.platform.async.Retry;
import ccp.platform.http.ServiceClient;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.role.RoleContext;
import ccp.seguridad.RegistroReacciones.Paso;
import ccp.seguridad.RegistroReacciones.Reaccion;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.VertxException;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * OrquestadorReaccion, the Reacción ante acceso indebido (B7–B14): opens the reaction (unique id_escritura), then
 * revokes in the Lista de revocación, blocks in the Gestor, compensates in Pedidos or Inventario (the service written)
 * and notifies through PublicadorAlertas — in that order, each step recorded before the next. Every step's effect is idempotent and every
 * record is a conditional update, so a reaction resumed after a crash (by this process or the standby) repeats no
 * effect. It fails closed: only the callee's definitive answer ends a step; any other answer or none is retried with
 * back-off, for as long as it takes, the actor revoked meanwhile. The reactions in progress are this verticle's own state.
 */
final class OrquestadorReaccion extends VerticleBase {

  /** Local event-bus address on which the Detector asks for a reaction (B6). */
  static final String DIRECCION = "ccp.seguridad.reaccion";
  /** Beside the reaction in the Detector's request: when the improper write was made (its event's t_escritura). */
  static final String T_ESCRITURA = "t_escritura";

  private static final Logger LOG = LoggerFactory.getLogger(OrquestadorReaccion.class);
  private static final Backoff REINTENTO = new Backoff(50, 2_000);
  /** How {@link #reintentando} learns that the reaction moved meanwhile (another runner, or a lift): no failure. */
  private static final VertxException MOVIDA = new VertxException("the reaction moved meanwhile", true);

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
    String tEscritura = message.body().getString(T_ESCRITURA);
    registro.abrir(reaccion, tEscritura == null ? null : Instant.parse(tEscritura)).onSuccess(abierta -> {
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
      case ABIERTA -> paso(r, Paso.REVOCADA, () -> registro.revocar(r));
      case REVOCADA -> paso(r, Paso.BLOQUEADA, () -> bloquear(r));
      case BLOQUEADA -> paso(r, Paso.COMPENSADA, () -> compensar(r));
      case COMPENSADA -> reintentando(r, () -> registro.compensacion(r).compose(compensacion -> alertas.accesoIndebido(r, compensacion)))
        .compose(sigue -> sigue ? registro.terminar(r, config.revocacionHoras()) : Future.succeededFuture(false)).mapEmpty();
      case NOTIFICADA, LEVANTADA -> Future.succeededFuture();
    };
  }

  /** Runs the step's effect until it succeeds, records it, and goes on — unless another runner (or a lift) moved it first. */
  private Future<Void> paso(Reaccion r, Paso hecho, Supplier<Future<Void>> efecto) {
    return reintentando(r, efecto)
      .compose(sigue -> sigue ? registro.avanzar(r, hecho) : Future.succeededFuture(false))
      .compose(avanzo -> avanzo ? siguiente(r.en(hecho)) : Future.succeededFuture());
  }

  /**
   * True once the effect succeeded; false when the reaction moved meanwhile. Every failure — a refusal, a 5xx, a
   * timeout — is counted in the reaction's row before the back-off, so a restarted process waits as long as this one
   * would have; past ASR-2's budget the area and the Bandeja are told once. The step is never skipped.
   */
  private Future<Boolean> reintentando(Reaccion r, Supplier<Future<Void>> efecto) {
    return Retry.until(vertx, () -> efecto.get().map(true), err -> {
      if (detenido) return Future.failedFuture(err);
      String error = String.valueOf(err.getMessage());
      return registro.fallo(r, error).compose(fallo -> {
        if (fallo.isEmpty()) return Future.failedFuture(MOVIDA);
        long espera = REINTENTO.delayMs(fallo.get().intentos());
        LOG.warn("Reaction {}: step after {} failed ({}); retrying in {} ms", r.idEscritura(), r.paso(), error, espera);
        return avisarSiDetenida(r, fallo.get(), error).map(espera);
      });
    }).recover(err -> err == MOVIDA ? Future.succeededFuture(false) : Future.failedFuture(err));
  }

  private Future<Void> avisarSiDetenida(Reaccion r, RegistroReacciones.Fallo fallo, String error) {
    if (fallo.avisada() || Duration.between(r.tDet(), Instant.now()).compareTo(config.asr2Budget()) <= 0) {
      return Future.succeededFuture();
    }
    LOG.error("Reaction {} to {}'s improper write is past ASR-2's budget, stuck after {}: {}", r.idEscritura(), r.actor(),
      r.paso(), error);
    return alertas.reaccionDetenida(r, error).compose(x -> registro.avisada(r))
      .recover(err -> {
        LOG.warn("Reaction {}: telling the area it is stuck failed ({}); told at the next failure", r.idEscritura(), err.toString());
        return Future.succeededFuture();
      });
  }

  /** B10. 200 (blocked now or before) ends the step; so does 404 unknown_actor: nobody to block, nor to let in. */
  private Future<Void> bloquear(Reaccion r) {
    return servicios.post("gestor", config.gestorUrl(), "/interno/actores/" + ServiceClient.segment(r.actor()) + "/bloqueo",
      new JsonObject()).<Void>mapEmpty().recover(err -> err instanceof ServiceClient.Failure f && f.status() == 404
        && "unknown_actor".equals(f.error()) ? Future.succeededFuture() : Future.failedFuture(err));
  }

  /** B11 in the service written; what it did is recorded with the reaction, for the alert. */
  private Future<Void> compensar(Reaccion r) {
    Future<JsonObject> hecho = "inventario".equals(r.servicio()) ? revertir(r) : anular(r);
    return hecho.compose(compensacion -> registro.compensada(r, compensacion));
  }

  /**
   * B11 in Pedidos. Only 200 (annulled now or before) ends the step: the write was committed with its order, so a 404
   * means the call reached the wrong place, not that there is nothing to annul.
   */
  private Future<JsonObject> anular(Reaccion r) {
    return servicios.post("pedidos", config.pedidosUrl(), "/interno/pedidos/" + ServiceClient.segment(r.pedido()) + "/anulacion",
      new JsonObject().put("motivo", motivo(r))).map(pedido -> new JsonObject().put("pedido", pedido.getString("pedido"))
        .put("estado", pedido.getString("estado")));
  }

  /**
   * B11 in Inventario: the stock adjustment is reverted, once, as far as the stock allows; only 200 (reverted now or
   * before) ends the step, as for an order. The answer says how many units could not be taken back (already reserved).
   */
  private Future<JsonObject> revertir(Reaccion r) {
    return servicios.post("inventario", config.inventarioUrl(),
      "/interno/inventario/ajustes/" + ServiceClient.segment(r.pedido()) + "/reversion", new JsonObject().put("motivo", motivo(r)))
      .map(ajuste -> {
        JsonObject reversion = ajuste.getJsonObject("reversion");
        return new JsonObject().put("ajuste", ajuste.getString("ajuste")).put("producto", ajuste.getString("producto"))
          .put("cantidad", ajuste.getInteger("cantidad")).put("revertidas", -reversion.getInteger("cantidad"))
          .put("no_revertidas", reversion.getInteger("no_revertidas")).put("disponible", reversion.getInteger("disponible"));
      });
  }

  private static String motivo(Reaccion r) {
    return "escritura indebida (reacción " + r.idEscritura() + ")";
  }
}
