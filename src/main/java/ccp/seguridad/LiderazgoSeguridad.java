package ccp.seguridad;

import ccp.platform.async.PeriodicTask;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ssf.FirmaSet;
import ccp.seguridad.ssf.RepartidorSet;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The seguridad group's "1 active + 1 standby" (DG-CON-001), for the whole process, not per consumer group: leadership
 * is a PostgreSQL session advisory lock held on a dedicated connection, as the Monitor's ({@code MonitorCadena}). Only
 * the holder runs the group's threads — the Reacción with its resume sweep, the Verificador, the Detector and the
 * Notificador — so the standby consumes nothing and resumes no reaction; it serves the security area's API. The lock
 * goes with the connection: when the holder's process dies, or its connection drops, the standby's next try (every
 * {@code seguridad.liderazgo-ms}) wins, and a holder that loses its connection undeploys its threads first.
 * The leadership state is this verticle's own.
 */
final class LiderazgoSeguridad extends VerticleBase {

  /** The advisory lock's key: any constant shared by every seguridad process of the system, apart from the Monitor's. */
  static final long LOCK_KEY = 0x43435073_65677572L;
  private static final Logger LOG = LoggerFactory.getLogger(LiderazgoSeguridad.class);

  private final RoleContext role;
  private final SeguridadConfig config;
  private final FirmaSet firma;
  private PgConnection connection;
  /** The group's threads deployed by this process; null while it is the standby. */
  private List<String> activos;
  private PeriodicTask liderazgo;
  private boolean stopped;

  LiderazgoSeguridad(RoleContext role, SeguridadConfig config, FirmaSet firma) {
    this.role = role;
    this.config = config;
    this.firma = firma;
  }

  /** The first try is awaited: a lone process is the active one when its start completes, and a failure fails it. */
  @Override
  public Future<?> start() {
    role.health().readyWhen("seguridad", context, () -> new JsonObject().put("ready", true).put("lider", activos != null));
    liderazgo = PeriodicTask.every(vertx, config.liderazgoMs(), "Seguridad leadership check", this::intentar);
    return liderazgo.runNow();
  }

  /** The threads go before the lock, so the standby never runs them beside this process. */
  @Override
  public Future<?> stop() {
    stopped = true;
    liderazgo.cancel();
    role.health().forget("seguridad");
    return retirar().eventually(() -> connection == null ? Future.succeededFuture() : connection.close());
  }

  private Future<Void> intentar() {
    if (activos != null || stopped) return Future.succeededFuture();
    return conectar()
      .compose(conn -> conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS lider").execute(Tuple.of(LOCK_KEY)))
      .compose(rows -> rows.iterator().next().getBoolean("lider") ? asumir() : Future.succeededFuture());
  }

  private Future<PgConnection> conectar() {
    if (connection != null) return Future.succeededFuture(connection);
    return PgConnection.connect(vertx, role.db().connectOptions()).onSuccess(conn -> {
      connection = conn;
      conn.closeHandler(closed -> perder());
    });
  }

  /**
   * Deploys the group's threads, the Notificador's Shared Signals sender with them; the Reacción listens before the
   * Detector can ask it. If one fails to start, the lock
   * is given back with the threads, so the other process may try.
   */
  private Future<Void> asumir() {
    LOG.info("This process is seguridad's active instance");
    List<String> ids = new ArrayList<>();
    activos = ids;
    return vertx.deployVerticle(new OrquestadorReaccion(role, config)).onSuccess(ids::add)
      .compose(reaccion -> Future.all(
        vertx.deployVerticle(new ConsumidorSesiones(role)).onSuccess(ids::add),
        vertx.deployVerticle(new ConsumidorEscrituras(role, config)).onSuccess(ids::add),
        vertx.deployVerticle(new ConsumidorAlertas(role, config, firma)).onSuccess(ids::add),
        vertx.deployVerticle(new RepartidorSet(role.sql(), config.ssf(), role.registry())).onSuccess(ids::add)))
      .<Void>mapEmpty()
      .recover(err -> {
        LOG.warn("Seguridad's threads did not start ({}); giving the leadership back", err.toString());
        return retirar().eventually(() -> connection == null ? Future.succeededFuture() : connection.close())
          .compose(x -> Future.failedFuture(err));
      });
  }

  /** The connection (and with it the lock) is gone: stop the group's threads until the lock is won again. */
  private void perder() {
    connection = null;
    if (activos != null && !stopped) LOG.warn("Lost seguridad's leadership; this process is the standby now");
    retirar();
  }

  private Future<Void> retirar() {
    List<String> ids = activos;
    activos = null;
    if (ids == null) return Future.succeededFuture();
    return Future.join(ids.stream().map(id -> vertx.undeploy(id)).toList()).mapEmpty();
  }
}
