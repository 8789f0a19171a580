package ccp.seguridad;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * "Avisos entregados" of the Notificador ({@code seguridad.avisos}): one row per {@code id_alerta}. Whether this
 * delivery is the first is decided by the row itself (insert or conditional update), never by a read-then-write.
 */
final class Avisos {

  private static final String REGISTRAR = """
    INSERT INTO seguridad.avisos (id_alerta, tipo, actor, detalle, t0, entregado_en)
    VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END)
    ON CONFLICT (id_alerta) DO NOTHING
    RETURNING id_alerta""";
  private static final String PENDIENTE = "SELECT entregado_en IS NULL AS pendiente FROM seguridad.avisos WHERE id_alerta = $1";
  private static final String ENTREGADO = """
    UPDATE seguridad.avisos SET entregado_en = now(), intentos = intentos + 1, ultimo_error = NULL
    WHERE id_alerta = $1 AND entregado_en IS NULL
    RETURNING id_alerta""";
  private static final String FALLO = "UPDATE seguridad.avisos SET intentos = intentos + 1, ultimo_error = $2 WHERE id_alerta = $1";
  private static final String LISTAR = """
    SELECT id_alerta, tipo, actor, detalle, t0, recibido_en, entregado_en, intentos, ultimo_error
    FROM seguridad.avisos
    WHERE ($1::text IS NULL OR actor = $1)
    ORDER BY recibido_en DESC, id_alerta
    LIMIT $2""";

  private final SqlClient sql;

  Avisos(SqlClient sql) {
    this.sql = sql;
  }

  /** Stores the alert; true if this call stored it (a repeated alert answers false). */
  Future<Boolean> registrar(UUID idAlerta, String tipo, String actor, JsonObject detalle, Instant t0, boolean entregadoAlGuardar) {
    OffsetDateTime at = t0 == null ? null : t0.atOffset(ZoneOffset.UTC);
    return sql.preparedQuery(REGISTRAR)
      .execute(Tuple.of(idAlerta, tipo, actor, detalle, at, entregadoAlGuardar))
      .map(rows -> rows.rowCount() == 1);
  }

  Future<Boolean> pendiente(UUID idAlerta) {
    return sql.preparedQuery(PENDIENTE).execute(Tuple.of(idAlerta))
      .map(rows -> rows.size() == 1 && rows.iterator().next().getBoolean("pendiente"));
  }

  /** Marks the alert delivered; true only for the call that delivered it first. */
  Future<Boolean> marcarEntregado(UUID idAlerta) {
    return sql.preparedQuery(ENTREGADO).execute(Tuple.of(idAlerta)).map(rows -> rows.rowCount() == 1);
  }

  Future<Void> registrarFallo(UUID idAlerta, String error) {
    return sql.preparedQuery(FALLO).execute(Tuple.of(idAlerta, error)).mapEmpty();
  }

  Future<JsonArray> listar(String actor, int limit) {
    return sql.preparedQuery(LISTAR).execute(Tuple.of(actor, limit)).map(rows -> {
      JsonArray list = new JsonArray();
      for (Row row : rows) list.add(toJson(row));
      return list;
    });
  }

  private static JsonObject toJson(Row row) {
    return new JsonObject()
      .put("id_alerta", row.getUUID("id_alerta").toString())
      .put("tipo", row.getString("tipo"))
      .put("actor", row.getString("actor"))
      .put("detalle", row.getJsonObject("detalle"))
      .put("t0", text(row.getOffsetDateTime("t0")))
      .put("recibido_en", text(row.getOffsetDateTime("recibido_en")))
      .put("entregado_en", text(row.getOffsetDateTime("entregado_en")))
      .put("intentos", row.getInteger("intentos"))
      .put("ultimo_error", row.getString("ultimo_error"));
  }

  private static String text(OffsetDateTime at) {
    return at == null ? null : at.toInstant().toString();
  }
}
