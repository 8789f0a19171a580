package ccp.seguridad;

import ccp.platform.db.Liderazgo;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ssf.FirmaSet;
import ccp.seguridad.ssf.RepartidorSet;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The seguridad group's "1 active + 1 standby" (DG-CON-001), for the whole process, not per consumer group
 * ({@link Liderazgo}, as the Monitor's). Only the leader runs the group's threads — the Reacción with its resume sweep,
 * the Verificador, the Detector and the Notificador — so the standby consumes nothing and resumes no reaction; it
 * serves the security area's API. When the leader's process dies, or its connection drops, the standby's next try
 * (every {@code seguridad.liderazgo-ms}) wins, and a leader that loses its connection undeploys its threads first.
 */
final class LiderazgoSeguridad extends VerticleBase {

  /** The advisory lock's key: any constant shared by every seguridad process of the system, apart from the Monitor's. */
  static final long LOCK_KEY = 0x43435073_65677572L;
  /** The Verificador's threads: {@code verificador-N} in a thread dump. */
  static final String HILOS_VERIFICADOR = "verificador";

  private final RoleContext role;
  private final SeguridadConfig config;
  private final FirmaSet firma;
  private Liderazgo liderazgo;
  /** The group's threads deployed by this process; empty while it is the standby. */
  private final List<String> activos = new ArrayList<>();

  LiderazgoSeguridad(RoleContext role, SeguridadConfig config, FirmaSet firma) {
    this.role = role;
    this.config = config;
    this.firma = firma;
  }

  /** The first try is awaited: a lone process is the active one when its start completes, and a failure fails it. */
  @Override
  public Future<?> start() {
    liderazgo = new Liderazgo(vertx, role.db().connectOptions(), LOCK_KEY, "seguridad", this::asumir, this::retirar);
    role.health().readyWhen("seguridad", context, () -> new JsonObject().put("ready", true).put("lider", liderazgo.lider()));
    return liderazgo.start(config.liderazgo());
  }

  @Override
  public Future<?> stop() {
    role.health().forget("seguridad");
    return liderazgo.stop();
  }

  /** The Reacción listens before the Detector can ask it; the Notificador's Shared Signals sender goes with them. */
  private Future<Void> asumir() {
    return vertx.deployVerticle(new OrquestadorReaccion(role, config)).onSuccess(activos::add)
      // join, not all: a failed start gives the leadership back only once every deployment has ended, none left behind.
      .compose(reaccion -> Future.join(
        verificador().onSuccess(activos::add),
        vertx.deployVerticle(new ConsumidorEscrituras(role, config)).onSuccess(activos::add),
        vertx.deployVerticle(new ConsumidorAlertas(role, config)).onSuccess(activos::add),
        vertx.deployVerticle(new RepartidorSet(role.sql(), config.ssf(), firma, role.registry())).onSuccess(activos::add)))
      .mapEmpty();
  }

  /**
   * The Verificador, one consumer per partition of {@code sesion.abierta}, each on a thread of its own, as the view
   * draws it: a worker pool of its own ({@link #HILOS_VERIFICADOR}), not an event loop. On an event loop it queued
   * behind the HTTP verticle sharing that loop, so the sessions' door and the alerts its sessions may raise (ASR-1)
   * took turns on one thread; on its own thread the operating system gives it its share of the cores whatever the
   * door does (under Gatling at 0.6 of the floor: ASR-1 p99 152–178 ms in three runs, against 142–227 ms).
   */
  private Future<String> verificador() {
    AtomicInteger miembro = new AtomicInteger();
    return vertx.deployVerticle(() -> new ConsumidorSesiones(role, miembro.getAndIncrement()),
      new DeploymentOptions().setInstances(config.verificadores()).setThreadingModel(ThreadingModel.WORKER)
        .setWorkerPoolName(HILOS_VERIFICADOR).setWorkerPoolSize(config.verificadores()));
  }

  private Future<Void> retirar() {
    List<String> ids = List.copyOf(activos);
    activos.clear();
    // At this verticle's own undeployment Vert.x has already undeployed its children: only those still deployed go.
    return Future.join(ids.stream().filter(vertx.deploymentIDs()::contains).map(id -> vertx.undeploy(id)).toList()).mapEmpty();
  }
}
