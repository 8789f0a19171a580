package ccp.seguridad;

import ccp.platform.db.Combiner;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * ControladorRegistro: the only writer of {@code RegistroDispositivos} (ADR-007). Each change is one atomic
 * statement on the vendedor's primary key, so concurrent sessions never see two current fingerprints.
 */
final class ControladorRegistro {

  record Registro(String vendedor, String huella, String origen, OffsetDateTime registradoEn) {}

  /**
   * The current fingerprint of each vendedor of a batch (one entry each); a vendedor's first fingerprint is registered
   * by the statement that looks for it. The table's rows are read in the statement's snapshot, which does not hold the
   * rows it inserts: each vendedor is answered once, by its new row or by the one it had.
   */
  private static final String VIGENTES_O_PRIMER_USO = """
    WITH presentada AS (
      SELECT * FROM unnest($1::text[], $2::text[]) AS p (vendedor, huella)),
    nuevo AS (
      INSERT INTO seguridad.registro_dispositivos (vendedor, huella, origen)
      SELECT vendedor, huella, 'PRIMER_USO' FROM presentada ORDER BY vendedor
      ON CONFLICT (vendedor) DO NOTHING
      RETURNING vendedor, huella)
    SELECT vendedor, huella FROM nuevo
    UNION ALL
    SELECT r.vendedor, r.huella FROM seguridad.registro_dispositivos r JOIN presentada USING (vendedor)""";

  private static final String CAMBIO = """
    INSERT INTO seguridad.registro_dispositivos (vendedor, huella, origen) VALUES ($1, $2, 'CAMBIO')
    ON CONFLICT (vendedor) DO UPDATE SET huella = EXCLUDED.huella, origen = 'CAMBIO', registrado_en = now()
    RETURNING vendedor, huella, origen, registrado_en""";

  private record Presentada(String vendedor, String huella) {}

  private final SqlClient sql;
  private final Combiner<String, Presentada, String> vigentes;

  /** For the registry's changes: no lookup of current fingerprints. */
  ControladorRegistro(SqlClient sql) {
    this(sql, 1);
  }

  /**
   * {@code loteMax}: the vendedores one lookup statement takes. Lookups made while one is in flight go together in the
   * next ({@link Combiner}), a vendedor once per statement; used on the one verticle's context that made it.
   */
  ControladorRegistro(SqlClient sql, int loteMax) {
    this.sql = sql;
    this.vigentes = new Combiner<>(loteMax, Presentada::vendedor, this::vigentes);
  }

  /**
   * A first use racing another (or a change) can find neither its own insert nor the other's row in its snapshot;
   * its lookup is then made again, by a statement with a new snapshot that sees the winner.
   */
  Future<String> vigente(String vendedor, String huellaPresentada) {
    return vigentes.submit(new Presentada(vendedor, huellaPresentada))
      .compose(huella -> huella != null ? Future.succeededFuture(huella) : vigente(vendedor, huellaPresentada));
  }

  private Future<Map<String, String>> vigentes(List<Presentada> lote) {
    String[] vendedores = new String[lote.size()];
    String[] huellas = new String[lote.size()];
    for (int i = 0; i < lote.size(); i++) {
      vendedores[i] = lote.get(i).vendedor();
      huellas[i] = lote.get(i).huella();
    }
    return sql.preparedQuery(VIGENTES_O_PRIMER_USO).execute(Tuple.tuple().addArrayOfString(vendedores).addArrayOfString(huellas))
      .map(rows -> Combiner.byKey(rows, row -> row.getString("vendedor"), row -> row.getString("huella")));
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
