package ccp.platform.db;

import ccp.platform.async.PeriodicTask;
import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * "1 active + 1 standby" among a group's processes (DG-CON-001): leadership is a PostgreSQL session advisory lock held
 * on a dedicated connection, outside any pool. Every {@code intentoMs} a process that does not lead tries the lock; the
 * one that wins runs {@code asumir} (deploys what only the leader runs). The lock goes with the session: when the
 * leader's process dies or its connection drops, PostgreSQL frees it and another's next try wins, and a leader that
 * loses its connection runs {@code retirar} first. If {@code asumir} fails, the lock is given back so another process
 * may try. The state is the owning verticle's own: create, start and stop it on that verticle's context.
 *
 * <p>A leader cut off from PostgreSQL without its connection closing (a partition, a frozen network path) is bounded on
 * both sides. The server ends the lock's session after {@code sesionMs} without a statement ({@code
 * idle_session_timeout}, set on the session once it holds the lock, and {@code tcp_user_timeout} for data it cannot
 * deliver), which frees the lock for the standby. The leader confirms its session every {@code intentoMs}; one not confirmed within {@code confirmarMs} makes
 * it step down on its own. {@code intentoMs + confirmarMs < sesionMs}, so a partitioned leader has stopped leading
 * before the server can free its lock: the standby's takeover is at most {@code sesionMs + intentoMs} after the cut,
 * and a deposed leader's statements still in flight are absorbed by the idempotent writes of the threads it ran (see
 * docs/design.md, "Leadership under a partition").
 */
public final class Liderazgo {

  private static final Logger LOG = LoggerFactory.getLogger(Liderazgo.class);

  /**
   * How often a process tries the lock (and, leading, confirms it), how long a confirmation may take before the leader
   * steps down, and how long the server keeps a silent lock session.
   */
  public record Plazos(long intentoMs, long confirmarMs, long sesionMs) {

    public Plazos {
      if (intentoMs + confirmarMs >= sesionMs) {
        throw new ConfigException("the leadership's try period (" + intentoMs + " ms) plus liderazgo.confirmar-ms ("
          + confirmarMs + " ms) must be below liderazgo.sesion-ms (" + sesionMs + " ms): a partitioned leader must step"
          + " down before the server frees its lock");
      }
    }

    /** The group's try period {@code intentoKey} with the shared {@code liderazgo.confirmar-ms} and {@code liderazgo.sesion-ms}. */
    public static Plazos from(Settings settings, String intentoKey) {
      return new Plazos(settings.integer(intentoKey), settings.integer("liderazgo.confirmar-ms"),
        settings.integer("liderazgo.sesion-ms"));
    }
  }

  private final Vertx vertx;
  private final PgConnectOptions options;
  private final long key;
  private final String name;
  private final Supplier<Future<?>> asumir;
  private final Supplier<Future<?>> retirar;
  private Plazos plazos;
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

  /** Starts trying every {@code intentoMs}; answers the first try, so a lone process leads when its start completes. */
  public Future<Void> start(Plazos plazos) {
    this.plazos = plazos;
    options.addProperty("tcp_user_timeout", Long.toString(plazos.sesionMs()));
    task = PeriodicTask.every(vertx, plazos.intentoMs(), name + " leadership check", this::intentar);
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
    if (stopped) return Future.succeededFuture();
    if (lider) return confirmar();
    intento = conectar().compose(conn -> conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS lider").execute(Tuple.of(key))
      .compose(rows -> rows.iterator().next().getBoolean("lider")
        // Unbounded, the lock is not kept: its connection goes, and with it the lock.
        ? acotar(conn).recover(err -> dejar().compose(x -> Future.failedFuture(err))).compose(x -> ganar())
        : Future.succeededFuture()));
    return intento;
  }

  /**
   * The server's bound on the lock's session, set once it holds the lock: a standby's connection, which holds nothing,
   * may sit idle between tries on a slow machine without being ended.
   */
  private Future<Void> acotar(PgConnection conn) {
    return conn.preparedQuery("SELECT set_config('idle_session_timeout', $1, false)")
      .execute(Tuple.of(Long.toString(plazos.sesionMs()))).mapEmpty();
  }

  /**
   * The lock is the session's: a statement answered on it within {@code confirmarMs} shows the lock still held, and
   * keeps the session from the server's idle timeout. No answer in time: this process steps down before the server
   * could give the lock to another.
   */
  private Future<Void> confirmar() {
    PgConnection conn = connection;
    return conn.query("SELECT 1").execute().<Void>mapEmpty()
      .timeout(plazos.confirmarMs(), TimeUnit.MILLISECONDS)
      .recover(err -> {
        if (connection != conn) return Future.succeededFuture();
        LOG.warn("{}: the leadership's session was not confirmed within {} ms ({}); stepping down", name,
          plazos.confirmarMs(), err.toString());
        perder();
        // Not awaited: over a cut path the close itself may never be answered.
        conn.close();
        return Future.succeededFuture();
      });
  }

  private Future<PgConnection> conectar() {
    if (connection != null) return Future.succeededFuture(connection);
    return PgConnection.connect(vertx, options).onSuccess(conn -> {
      connection = conn;
      conn.closeHandler(closed -> {
        if (connection == conn) perder();
      });
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

  /** The connection, and with it the lock, is gone (or cannot be confirmed): stop leading until the lock is won again. */
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
