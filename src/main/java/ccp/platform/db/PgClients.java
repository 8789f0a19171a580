package ccp.platform.db;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlClient;

import java.util.concurrent.TimeUnit;

/**
 * A role's PostgreSQL clients. Single statements go through a pipelining client: under load many queries
 * share one write and one wake-up of the server instead of one round trip each (a pool does not pipeline).
 */
public final class PgClients {

  private PgClients() {}

  /**
   * Every write of this project is one atomic statement, so one pipelining client serves all of a role's but its outbox
   * relay's ({@link #relay}); it holds up to {@code pg.pool-size} connections of {@code pg}'s login role, named after
   * it in the pool metrics. A connection is opened, or waited for, within {@code pg.connect-timeout-ms} (a failure the
   * HTTP routes answer 503), and probed by TCP keepalive so that a server gone without a word is noticed and its
   * connections replaced.
   */
  public static SqlClient pipelined(Vertx vertx, PgConfig pg) {
    return build(vertx, pg, pg.connectOptions(), pg.poolSize(), "ccp-statements-");
  }

  /** The connections of an outbox relay's own client ({@link #relay}). */
  public static final int RELAY_CONNECTIONS = 2;

  /**
   * An outbox relay's own client, of {@link #RELAY_CONNECTIONS} connections (a purge of sent rows does not hold up a
   * claim behind it), on which the planner never takes a bitmap scan. The relay claims the unsent rows through the
   * partial index of those rows, and every row it marks sent leaves a dead entry there until a vacuum. An index scan in
   * id order marks those entries dead as it passes them, so the next claim skips them; a bitmap scan, which PostgreSQL
   * picks for the claim while no statistics describe the table (its first minute after a fresh start), never does,
   * and under load each claim read again every row sent since then: thousands of entries and the heap pages behind
   * them.
   */
  public static SqlClient relay(Vertx vertx, PgConfig pg) {
    PgConnectOptions options = pg.connectOptions();
    options.addProperty("enable_bitmapscan", "off");
    return build(vertx, pg, options, RELAY_CONNECTIONS, "ccp-relay-");
  }

  private static SqlClient build(Vertx vertx, PgConfig pg, PgConnectOptions options, int connections, String name) {
    return PgBuilder.client()
      .with(new PoolOptions().setMaxSize(connections).setName(name + pg.user())
        .setConnectionTimeout(pg.connectTimeoutMs()).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
      .with(new NetClientOptions().setTcpKeepAlive(true).setConnectTimeout(pg.connectTimeoutMs()))
      .connectingTo(options)
      .using(vertx)
      .build();
  }
}
