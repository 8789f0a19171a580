package ccp.platform.db;

import ccp.platform.config.Settings;
import org.flywaydb.core.Flyway;

import java.util.ArrayList;
import java.util.List;

/**
 * Versioned migrations with Flyway, one history per service schema ({@code classpath:db/<schema>}), so each
 * process migrates only the schemas of the roles it runs. Flyway serializes concurrent runs with its own lock.
 */
public final class Migrations {

  private Migrations() {}

  /** Blocking (JDBC): run it on a worker, never on an event loop. */
  public static void migrate(Settings settings, List<String> schemas) {
    String url = "jdbc:postgresql://" + settings.text("pg.host") + ":" + settings.integer("pg.port") + "/" + settings.text("pg.database");
    for (String schema : schemas) {
      List<String> locations = new ArrayList<>(List.of("classpath:db/" + schema));
      if (settings.flag("demo.seed")) {
        locations.add("classpath:db/" + schema + "-demo");
      }
      Flyway.configure()
        .dataSource(url, settings.text("pg.user"), settings.text("pg.password"))
        .schemas(schema)
        .createSchemas(true)
        .locations(locations.toArray(String[]::new))
        .failOnMissingLocations(false)
        .load()
        .migrate();
    }
  }
}
