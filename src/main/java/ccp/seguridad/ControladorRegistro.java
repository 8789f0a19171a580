package ccp.seguridad;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;

/**
 * ControladorRegistro: the only writer of {@code RegistroDispositivos} (ADR-007). Each change is one atomic
 * statement on the vendedor's primary key, so concurrent sessions never see two current fingerprints.
 */
final class ControladorRegistro {

  record Registro(String vendedor, String huella, String origen, OffsetDateTime registradoEn) {}

  /** The current fingerprint; a vendedor's first fingerprint is registered by the statement that looks for it. */
  private static final String VIGENTE_O_PRIMER_USO = """
    WITH nuevo AS (
      INSERT INTO seguridad.registro_dispositivos (vendedor, huella, origen) VALUES ($1, $2, 'PRIMER_USO')
      ON CONFLICT (vendedor) DO NOTHING
      RETURNING huella)
    SELECT huella FROM nuevo
    UNION ALL
    SELECT huella FROM seguridad.registro_dispositivos WHERE vendedor = $1
    LIMIT 1""";

  private static final String CAMBIO = """
    INSERT INTO seguridad.registro_dispositivos (vendedor, huella, origen) VALUES ($1, $2, 'CAMBIO')
    ON CONFLICT (vendedor) DO UPDATE SET huella = EXCLUDED.huella, origen = 'CAMBIO', registrado_en = now()
    RETURNING vendedor, huella, origen, registrado_en""";

  private final SqlClient sql;

  ControladorRegistro(SqlClient sql) {
    this.sql = sql;
  }

  /**
   * A first use racing another (or a change) can find neither its own insert nor the other's row in its snapshot;
   * the statement is then run again, with a new snapshot that sees the winner.
   */
  Future<String> vigente(String vendedor, String huellaPresentada) {
    return sql.preparedQuery(VIGENTE_O_PRIMER_USO).execute(Tuple.of(vendedor, huellaPresentada))
      .compose(rows -> rows.size() == 1
        ? Future.succeededFuture(rows.iterator().next().getString("huella"))
        : vigente(vendedor, huellaPresentada));
  }

  /** A legitimate change of device, registered before the new device is used. */
  Future<Registro> registrarCambio(String vendedor, String huella) {
    return sql.preparedQuery(CAMBIO).execute(Tuple.of(vendedor, huella)).map(rows -> {
      Row row = rows.iterator().next();
      return new Registro(row.getString("vendedor"), row.getString("huella"), row.getString("origen"),
        row.getOffsetDateTime("registrado_en"));
    });
  }
}
