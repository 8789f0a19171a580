package ccp.platform.db;

import org.flywaydb.core.Flyway;

import java.util.ArrayList;
import java.util.List;

/**
 * Versioned migrations with Flyway, one history per service schema ({@code classpath:db/<schema>}), so each
 * process migrates only the schemas of the roles it runs, each as the schema's owner ({@code db/bootstrap.sql}).
 * Flyway serializes concurrent runs with its own lock.
 */
public final class Migrations {

  private Migrations() {}

  /**
   * Blocking (JDBC): run it on a worker, never on an event loop. {@code pg}'s role owns {@code schemas}, which
   * {@code db/bootstrap.sql} created. {@code demoSeed}: also the demo data of each schema.
   */
  public static void migrate(PgConfig pg, boolean demoSeed, List<String> schemas) {
    for (String schema : schemas) {
      List<String> locations = new ArrayList<>(List.of("classpath:db/" + schema));
      if (demoSeed) {
        locations.add("classpath:db/" + schema + "-demo");
      }
      Flyway.configure()
        .dataSource(pg.jdbcUrl(), pg.user(), pg.password())
        .schemas(schema)
        .createSchemas(true)
        .locations(locations.toArray(String[]::new))
        .failOnMissingLocations(false)
        .load()
        .migrate();
    }
  }
}
