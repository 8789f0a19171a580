package ccp.platform.db;

import ccp.platform.config.ConfigException;
import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import io.vertx.pgclient.PgConnectOptions;

/**
 * Where PostgreSQL is, as which login role, how many connections that role's client may hold and how long it waits on
 * the server ({@code pg.*}). Each process group connects as its own role (see {@link PgRoles}), also beside the others
 * in the all-in-one process.
 *
 * @param statementTimeoutMs the server cancels a statement running longer ({@code statement_timeout} of every session)
 * @param connectTimeoutMs   how long opening a connection, or waiting for one of the pool's, may take
 */
public record PgConfig(String host, int port, String database, String user, String password, int poolSize,
                       int statementTimeoutMs, int connectTimeoutMs) {

  /**
   * Seconds of silence on a session before the server probes it, then between probes: a client gone without a word
   * (a crashed node, a NAT that dropped the flow) frees its backend, its locks and its advisory lock within about a
   * minute instead of the kernel's two hours.
   */
  private static final String KEEPALIVE_IDLE_S = "30";
  private static final String KEEPALIVE_INTERVAL_S = "10";

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
      settings.integer("pg.pool-size"), settings.integer("pg.statement-timeout-ms"), settings.integer("pg.connect-timeout-ms"));
  }

  /**
   * New options each call: vertx-pg-client's options are mutable, so no two clients share one. The session's bounds
   * travel as startup parameters, so they hold on every connection, a dedicated one included. The statements' metrics
   * ({@code vertx_sql_*}) carry the login role as their {@code client_namespace}: an all-in-one process holds one client
   * per role, whose series would otherwise add up into one.
   */
  public PgConnectOptions connectOptions() {
    PgConnectOptions options = new PgConnectOptions()
      .setHost(host)
      .setPort(port)
      .setDatabase(database)
      .setUser(user)
      .setPassword(password)
      .setCachePreparedStatements(true)
      .setPipeliningLimit(256);
    options.setMetricsName(user);
    options.addProperty("statement_timeout", Integer.toString(statementTimeoutMs));
    options.addProperty("tcp_keepalives_idle", KEEPALIVE_IDLE_S);
    options.addProperty("tcp_keepalives_interval", KEEPALIVE_INTERVAL_S);
    return options;
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  @Override
  public String toString() {
    return "PgConfig[" + user + "@" + host + ":" + port + "/" + database + ", pool " + poolSize + "]";
  }
}
