package ccp.platform.db;

import ccp.platform.async.PeriodicTask;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * "1 active + 1 standby" among a group's processes (DG-CON-001): leadership is a PostgreSQL session advisory lock held
 * on a dedicated connection, outside any pool. Every {@code periodMs} a process that does not lead tries the lock; the one
 * that wins runs {@code asumir} (deploys what only the leader runs). The lock goes with the connection: when the leader's
 * process dies or its connection drops, PostgreSQL frees it and another's next try wins, and a leader that loses its
 * connection runs {@code retirar} first. If {@code asumir} fails, the lock is given back so another process may try.
 * The state is the owning verticle's own: create, start and stop it on that verticle's context.
 */
public final class Liderazgo {

  private static final Logger LOG = LoggerFactory.getLogger(Liderazgo.class);

  private final Vertx vertx;
  private final PgConnectOptions options;
  private final long key;
  private final String name;
  private final Supplier<Future<?>> asumir;
  private final Supplier<Future<?>> retirar;
  private PeriodicTask task;
  /** The try in flight, if any: a stop waits for it, so a lock won meanwhile is not left behind on a stopped process. */
  private Future<Void> intento = Future.succeededFuture();
  private PgConnection connection;
  private boolean lider;
  private boolean stopped;

  /**
   * @param key     the advisory lock's key, shared by every process of the group and by no other group
   * @param name    whose leadership, for the log
   * @param asumir  starts what the leader runs
   * @param retirar stops it; must succeed when nothing is running
   */
  public Liderazgo(Vertx vertx, PgConnectOptions options, long key, String name, Supplier<Future<?>> asumir,
                   Supplier<Future<?>> retirar) {
    this.vertx = vertx;
    this.options = options;
    this.key = key;
    this.name = name;
    this.asumir = asumir;
    this.retirar = retirar;
  }

  /** Starts trying every {@code periodMs}; answers the first try, so a lone process leads when its start completes. */
  public Future<Void> start(long periodMs) {
    task = PeriodicTask.every(vertx, periodMs, name + " leadership check", this::intentar);
    return task.runNow();
  }

  public boolean lider() {
    return lider;
  }

  /** What the leader runs goes before the lock, so that no other process runs it beside this one. */
  public Future<Void> stop() {
    stopped = true;
    if (task != null) task.cancel();
    return intento.otherwise((Void) null).compose(x -> dejar());
  }

  private Future<Void> intentar() {
    if (lider || stopped) return Future.succeededFuture();
    intento = conectar()
      .compose(conn -> conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS lider").execute(Tuple.of(key)))
      .compose(rows -> rows.iterator().next().getBoolean("lider") ? ganar() : Future.succeededFuture());
    return intento;
  }

  private Future<PgConnection> conectar() {
    if (connection != null) return Future.succeededFuture(connection);
    return PgConnection.connect(vertx, options).onSuccess(conn -> {
      connection = conn;
      conn.closeHandler(closed -> perder());
    });
  }

  private Future<Void> ganar() {
    if (stopped) return Future.succeededFuture();
    LOG.info("This process leads {}", name);
    lider = true;
    return asumir.get().<Void>mapEmpty().recover(err -> {
      LOG.warn("{} did not start as leader ({}); giving the leadership back", name, err.toString());
      return dejar().compose(x -> Future.failedFuture(err));
    });
  }

  /** The connection, and with it the lock, is gone: stop leading until the lock is won again. */
  private void perder() {
    connection = null;
    if (!lider) return;
    lider = false;
    if (!stopped) LOG.warn("Lost the leadership of {}; this process is a standby now", name);
    retirar.get();
  }

  /** Stops what the leader runs, then closes the connection, which frees the lock. */
  private Future<Void> dejar() {
    Future<Void> retirado = lider ? retirar.get().mapEmpty() : Future.succeededFuture();
    lider = false;
    return retirado.otherwise((Void) null).compose(x -> {
      PgConnection conn = connection;
      connection = null;
      return conn == null ? Future.succeededFuture() : conn.close();
    });
  }
}
