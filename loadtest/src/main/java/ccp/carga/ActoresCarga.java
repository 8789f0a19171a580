package ccp.carga;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.infra.PgCredentials;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The read-only actors of one load run, registered in the Gestor's directory before the load: the roles authorize by
 * the directory's profile, so an improper write must come from a known CONSULTA actor, and from one of its own (the
 * Reacción blocks it), so that runs repeat cleanly.
 */
public final class ActoresCarga {

  private static final String REGISTRAR = """
    INSERT INTO gestor.actores (id, nombre, perfil)
    SELECT $1 || n, 'Consulta de carga ' || $1 || n, 'CONSULTA' FROM generate_series(0, $2 - 1) AS n
    ON CONFLICT (id) DO NOTHING""";

  private ActoresCarga() {}

  /** Enough actors for a share {@code improper} of {@code rate}/s over {@code seconds}, with a margin for chance. */
  public static int reserva(double rate, int seconds, double improper) {
    return improper <= 0 ? 0 : (int) Math.ceil(rate * seconds * improper * 1.2) + 32;
  }

  /**
   * Registers {@code prefijo0} … {@code prefijo(n-1)} as CONSULTA actors in the database {@code settings} name, as the
   * directory's owner (the gestor login), or, with {@code pg.host} empty, in the embedded PostgreSQL running from the
   * data directory, with the password the data directory keeps.
   */
  public static void registrar(Settings settings, String prefijo, int n) throws Exception {
    if (n == 0) return;
    Settings database = settings.embeddedPostgres() ? embedded(settings) : settings;
    Vertx vertx = Vertx.vertx();
    try {
      SqlClient sql = PgClients.pipelined(vertx, PgConfig.of(database, "gestor"));
      sql.preparedQuery(REGISTRAR).execute(Tuple.of(prefijo, n)).await(30, TimeUnit.SECONDS);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** The all-in-one's PostgreSQL listens on a free port: its postmaster.pid (fourth line) names it. */
  private static Settings embedded(Settings settings) throws IOException {
    Path pid = settings.dataDir().resolve(OpcionesCarga.POSTMASTER_PID);
    List<String> lines = Files.exists(pid) ? Files.readAllLines(pid) : List.of();
    if (lines.size() < 4 || !lines.get(3).trim().matches("[0-9]{1,5}")) {
      throw new ConfigException("improper writes need read-only actors registered in gestor.actores, and no PostgreSQL runs from "
        + pid.toAbsolutePath().getParent() + ": start the system from this directory, set " + Settings.envName("pg.host")
        + " and " + Settings.envName("pg.port") + " to its database, or pass --improper=0");
    }
    return settings.with(PgCredentials.inDataDir(settings.dataDir()).settings())
      .with(Map.of("pg.host", "127.0.0.1", "pg.port", Integer.parseInt(lines.get(3).trim())));
  }
}
