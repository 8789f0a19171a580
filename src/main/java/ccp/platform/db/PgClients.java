package ccp.platform.db;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlClient;

/**
 * A role's PostgreSQL clients. Single statements go through a pipelining client: under load many queries
 * share one write and one wake-up of the server instead of one round trip each (a pool does not pipeline).
 */
public final class PgClients {

  private PgClients() {}

  /**
   * Every write of this project is one atomic statement, so one pipelining client serves all of a role's; it holds up
   * to {@code pg.pool-size} connections of {@code pg}'s login role, named after it in the pool metrics.
   */
  public static SqlClient pipelined(Vertx vertx, PgConfig pg) {
    return PgBuilder.client()
      .with(new PoolOptions().setMaxSize(pg.poolSize()).setName("ccp-statements-" + pg.user()))
      .connectingTo(pg.connectOptions())
      .using(vertx)
      .build();
  }
}
