package ccp.platform.db;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import io.vertx.pgclient.PgConnectOptions;

/**
 * Where PostgreSQL is, as which login role, and how many connections that role's client may hold ({@code pg.*}). Each
 * process group connects as its own role (see {@link PgRoles}), also beside the others in the all-in-one process.
 */
public record PgConfig(String host, int port, String database, String user, String password, int poolSize) {

  /**
   * The login role {@code role}, with its password {@code pg.password.<role>}.
   *
   * @throws ConfigException when that password is not set
   */
  public static PgConfig of(Settings settings, String role) {
    String key = PgRoles.passwordKey(role);
    String password = settings.text(key);
    if (password.isEmpty()) {
      throw new ConfigException("PostgreSQL role '" + role + "' has no password: set " + Settings.envName(key));
    }
    return new PgConfig(settings.text("pg.host"), settings.integer("pg.port"), settings.text("pg.database"), role, password,
      settings.integer("pg.pool-size"));
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
