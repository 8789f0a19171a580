package ccp.platform.db;

import ccp.platform.config.Settings;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlClient;

/**
 * The process's PostgreSQL clients. Single statements go through a pipelining client: under load many queries
 * share one write and one wake-up of the server instead of one round trip each (a pool does not pipeline).
 */
public final class PgClients {

  private PgClients() {}

  public static PgConnectOptions connectOptions(Settings settings) {
    return new PgConnectOptions()
      .setHost(settings.text("pg.host"))
      .setPort(settings.integer("pg.port"))
      .setDatabase(settings.text("pg.database"))
      .setUser(settings.text("pg.user"))
      .setPassword(settings.text("pg.password"))
      .setCachePreparedStatements(true)
      .setPipeliningLimit(256);
  }

  /** Every write of this project is one atomic statement, so one pipelining client serves them all. */
  public static SqlClient pipelined(Vertx vertx, Settings settings) {
    return PgBuilder.client()
      .with(new PoolOptions().setMaxSize(settings.integer("pg.pool-size")).setName("ccp-statements"))
      .connectingTo(connectOptions(settings))
      .using(vertx)
      .build();
  }
}
