package ccp.platform.db;

import ccp.platform.config.Settings;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/** The process's PostgreSQL pool, sized from configuration (the client's default of 4 starves under load). */
public final class PgPools {

  private PgPools() {}

  public static PgConnectOptions connectOptions(Settings settings) {
    return new PgConnectOptions()
      .setHost(settings.text("pg.host"))
      .setPort(settings.integer("pg.port"))
      .setDatabase(settings.text("pg.database"))
      .setUser(settings.text("pg.user"))
      .setPassword(settings.text("pg.password"))
      .setCachePreparedStatements(true);
  }

  public static Pool create(Vertx vertx, Settings settings) {
    return PgBuilder.pool()
      .with(new PoolOptions().setMaxSize(settings.integer("pg.pool-size")))
      .connectingTo(connectOptions(settings))
      .using(vertx)
      .build();
  }
}
