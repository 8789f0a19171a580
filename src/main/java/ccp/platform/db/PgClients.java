package ccp.platform.db;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
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
   * Every write of this project is one atomic statement, so one pipelining client serves all of a role's; it holds up
   * to {@code pg.pool-size} connections of {@code pg}'s login role, named after it in the pool metrics. A connection
   * is opened, or waited for, within {@code pg.connect-timeout-ms} (a failure the HTTP routes answer 503), and probed
   * by TCP keepalive so that a server gone without a word is noticed and its connections replaced.
   */
  public static SqlClient pipelined(Vertx vertx, PgConfig pg) {
    return PgBuilder.client()
      .with(new PoolOptions().setMaxSize(pg.poolSize()).setName("ccp-statements-" + pg.user())
        .setConnectionTimeout(pg.connectTimeoutMs()).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
      .with(new NetClientOptions().setTcpKeepAlive(true).setConnectTimeout(pg.connectTimeoutMs()))
      .connectingTo(pg.connectOptions())
      .using(vertx)
      .build();
  }
}
