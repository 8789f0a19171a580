package ccp.platform.db;

import ccp.platform.config.ConfigException;
import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Versioned migrations with Flyway, one history per service schema ({@code classpath:db/<schema>}), so each
 * process migrates only the schemas of the roles it runs, each as the schema's owner ({@code db/bootstrap.sql}).
 * Flyway serializes concurrent runs with its own lock. An applied migration reworded in its comments only is let
 * through ({@link Rewordings}).
 */
public final class Migrations {

  /** invalid_password, invalid_authorization_specification: the server refused the login. */
  private static final Set<String> REFUSED_LOGIN = Set.of("28P01", "28000");

  private Migrations() {}

  /**
   * Blocking (JDBC): run it on a worker, never on an event loop. {@code pg}'s role owns {@code schemas}, which
   * {@code db/bootstrap.sql} created. {@code demoSeed}: also the demo data of each schema.
   *
   * @throws ConfigException when the server refuses {@code pg}'s login
   */
  public static void migrate(PgConfig pg, boolean demoSeed, List<String> schemas) {
    for (String schema : schemas) {
      List<String> locations = new ArrayList<>(List.of("classpath:db/" + schema));
      if (demoSeed) {
        locations.add("classpath:db/" + schema + "-demo");
      }
      try {
        Rewordings.apply(pg, schema);
        Flyway.configure()
          .dataSource(pg.jdbcUrl(), pg.user(), pg.password())
          .schemas(schema)
          .createSchemas(true)
          .locations(locations.toArray(String[]::new))
          .failOnMissingLocations(false)
          .load()
          .migrate();
      } catch (FlywayException | SQLException e) {
        throw failure(pg, schema, e);
      }
    }
  }

  private static RuntimeException failure(PgConfig pg, String schema, Exception e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && REFUSED_LOGIN.contains(sql.getSQLState())) {
        return new ConfigException("PostgreSQL at " + pg.host() + ":" + pg.port() + " refuses the login of role '" + pg.user()
          + "': check " + Settings.envName(PgRoles.passwordKey(pg.user())) + ", and that db/bootstrap.sql created the role");
      }
    }
    return new IllegalStateException("migrating schema " + schema + " as role " + pg.user() + " failed (the role must own it, "
      + "as db/bootstrap.sql makes it): " + e.getMessage(), e);
  }
}
