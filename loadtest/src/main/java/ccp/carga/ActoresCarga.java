package ccp.carga;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

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

  /** Registers {@code prefijo0} … {@code prefijo(n-1)} as CONSULTA actors in the database {@code settings} name. */
  public static void registrar(Settings settings, String prefijo, int n) throws Exception {
    if (n == 0) return;
    if (settings.embeddedPostgres()) {
      throw new ConfigException("improper writes need read-only actors registered in gestor.actores: set "
        + Settings.envName("pg.host") + " and " + Settings.envName("pg.port") + " to the system's database (or --improper=0)");
    }
    Vertx vertx = Vertx.vertx();
    try {
      SqlClient sql = PgClients.pipelined(vertx, PgConfig.from(settings));
      sql.preparedQuery(REGISTRAR).execute(Tuple.of(prefijo, n)).await(30, TimeUnit.SECONDS);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
