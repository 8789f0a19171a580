package ccp.platform.db;

import ccp.platform.config.Settings;
import io.vertx.pgclient.PgConnectOptions;

/** Where the process's PostgreSQL is and how many connections it may hold ({@code pg.*}). */
public record PgConfig(String host, int port, String database, String user, String password, int poolSize) {

  public static PgConfig from(Settings settings) {
    return new PgConfig(settings.text("pg.host"), settings.integer("pg.port"), settings.text("pg.database"),
      settings.text("pg.user"), settings.text("pg.password"), settings.integer("pg.pool-size"));
  }

  /** New options each call: vertx-pg-client's options are mutable, so no two clients share one. */
  public PgConnectOptions connectOptions() {
    return new PgConnectOptions()
      .setHost(host)
      .setPort(port)
      .setDatabase(database)
      .setUser(user)
      .setPassword(password)
      .setCachePreparedStatements(true)
      .setPipeliningLimit(256);
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  @Override
  public String toString() {
    return "PgConfig[" + user + "@" + host + ":" + port + "/" + database + ", pool " + poolSize + "]";
  }
}
