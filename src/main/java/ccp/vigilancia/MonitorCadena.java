package ccp.vigilancia;

import ccp.app.RoleContext;
import ccp.platform.db.PgClients;
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
public final class MonitorCadena extends VerticleBase {

  /** The advisory lock's key: any constant shared by every monitor of the system. */
  static final long LOCK_KEY = 0x43435076_69676C6CL;
  private static final Logger LOG = LoggerFactory.getLogger(MonitorCadena.class);

  private final RoleContext role;
  private PgConnection connection;
  private String barrido;
  private String sondeo;
  private long timer;
  private boolean trying;
  private boolean stopped;

  public MonitorCadena(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    role.health().readyWhen("vigilancia", context, () -> new JsonObject().put("ready", true).put("lider", barrido != null));
    timer = vertx.setPeriodic(role.settings().integer("vigilancia.liderazgo-ms"), id -> intentar());
    intentar();
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(timer);
    role.health().forget("vigilancia");
    return connection == null ? Future.succeededFuture() : connection.close();
  }

  private void intentar() {
    if (trying || barrido != null || stopped) return;
    trying = true;
    conectar()
      .compose(conn -> conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS lider").execute(Tuple.of(LOCK_KEY)))
      .compose(rows -> rows.iterator().next().getBoolean("lider") ? asumir() : Future.succeededFuture())
      .onFailure(err -> LOG.warn("Leadership check failed: {}", err.toString()))
      .onComplete(x -> trying = false);
  }

  private Future<PgConnection> conectar() {
    if (connection != null) return Future.succeededFuture(connection);
    return PgConnection.connect(vertx, PgClients.connectOptions(role.settings())).onSuccess(conn -> {
      connection = conn;
      conn.closeHandler(closed -> perder());
    });
  }

  private Future<Void> asumir() {
    LOG.info("This process leads the chain monitor");
    return vertx.deployVerticle(new BarridoPlazos(role)).onSuccess(id -> barrido = id)
      .compose(x -> vertx.deployVerticle(new SondeoSalud(role))).onSuccess(id -> sondeo = id).mapEmpty();
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
