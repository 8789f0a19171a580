package ccp.vigilancia;

import ccp.platform.async.PeriodicTask;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Monitor de la cadena, "1 leader + 1 standby": leadership is a PostgreSQL session advisory lock held on a dedicated
 * connection, outside any pool. Only the holder runs the scheduled threads (BarridoPlazos, SondeoSalud); the lock goes with the
 * connection, so when the leader's process dies the standby's next try (every {@code vigilancia.liderazgo-ms}) wins.
 * The leadership state is this verticle's own.
 */
final class MonitorCadena extends VerticleBase {

  /** The advisory lock's key: any constant shared by every monitor of the system. */
  static final long LOCK_KEY = 0x43435076_69676C6CL;
  private static final Logger LOG = LoggerFactory.getLogger(MonitorCadena.class);

  private final RoleContext role;
  private final VigilanciaConfig config;
  private PgConnection connection;
  private String barrido;
  private String sondeo;
  private PeriodicTask liderazgo;
  private boolean stopped;

  MonitorCadena(RoleContext role, VigilanciaConfig config) {
    this.role = role;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    role.health().readyWhen("vigilancia", context, () -> new JsonObject().put("ready", true).put("lider", barrido != null));
    liderazgo = PeriodicTask.every(vertx, config.liderazgoMs(), "Leadership check", this::intentar);
    liderazgo.runNow();
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    liderazgo.cancel();
    role.health().forget("vigilancia");
    return connection == null ? Future.succeededFuture() : connection.close();
  }

  private Future<Void> intentar() {
    if (barrido != null || stopped) return Future.succeededFuture();
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

  private Future<Void> asumir() {
    LOG.info("This process leads the chain monitor");
    return vertx.deployVerticle(new BarridoPlazos(role, config)).onSuccess(id -> barrido = id)
      .compose(x -> vertx.deployVerticle(new SondeoSalud(role, config))).onSuccess(id -> sondeo = id).mapEmpty();
  }

  /** The connection (and with it the lock) is gone: stop sweeping until the lock is won again. */
  private void perder() {
    connection = null;
    if (barrido != null) {
      LOG.warn("Lost the chain monitor's leadership");
      vertx.undeploy(barrido);
      barrido = null;
    }
    if (sondeo != null) {
      vertx.undeploy(sondeo);
      sondeo = null;
    }
  }
}
