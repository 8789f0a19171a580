package ccp.seguridad;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * RegistroReacciones and the Lista de revocación ({@code seguridad.registro_reacciones}, {@code seguridad.lista_revocacion}):
 * the reaction's persisted progress, and the one writer of the list.
 */
final class RegistroReacciones {

  /** The steps of the view's ordered reaction (B7–B13), each the state after it is done. */
  enum Paso { ABIERTA, REVOCADA, BLOQUEADA, COMPENSADA, NOTIFICADA }

  record Reaccion(UUID idEscritura, String actor, String servicio, String pedido, Instant tDet, Paso paso) {
    JsonObject toJson() {
      return new JsonObject().put("id_escritura", idEscritura.toString()).put("actor", actor).put("servicio", servicio)
        .put("pedido", pedido).put("t_det", tDet.toString()).put("paso", paso.name());
    }

    static Reaccion fromJson(JsonObject json) {
      return new Reaccion(UUID.fromString(json.getString("id_escritura")), json.getString("actor"), json.getString("servicio"),
        json.getString("pedido"), Instant.parse(json.getString("t_det")), Paso.valueOf(json.getString("paso")));
    }

    Reaccion en(Paso siguiente) {
      return new Reaccion(idEscritura, actor, servicio, pedido, tDet, siguiente);
    }
  }

  private static final String ABRIR = """
    INSERT INTO seguridad.registro_reacciones (id_escritura, actor, servicio, pedido, t_det, paso)
    VALUES ($1, $2, $3, $4, $5, 'ABIERTA')
    ON CONFLICT (id_escritura) DO NOTHING""";
  private static final String AVANZAR = """
    UPDATE seguridad.registro_reacciones
    SET paso = $3, actualizada_en = now(),
        revocada_en = CASE WHEN $3 = 'REVOCADA' THEN now() ELSE revocada_en END,
        terminada_en = CASE WHEN $3 = 'NOTIFICADA' THEN now() ELSE terminada_en END
    WHERE id_escritura = $1 AND paso = $2""";
  private static final String ESTANCADAS = """
    SELECT id_escritura, actor, servicio, pedido, t_det, paso FROM seguridad.registro_reacciones
    WHERE paso <> 'NOTIFICADA' AND actualizada_en < now() - make_interval(secs => $1::float8 / 1000)
    ORDER BY actualizada_en LIMIT 100""";
  private static final String REVOCAR = """
    INSERT INTO seguridad.lista_revocacion (actor, revocado_en, vence_en, motivo, id_escritura)
    VALUES ($1, now(), now() + make_interval(hours => $2), $3, $4)
    ON CONFLICT (actor) DO UPDATE SET vence_en = GREATEST(lista_revocacion.vence_en, EXCLUDED.vence_en)""";

  private final SqlClient sql;

  RegistroReacciones(SqlClient sql) {
    this.sql = sql;
  }

  /** B7: true if this call opened it; false if the reaction to this write was already open. */
  Future<Boolean> abrir(Reaccion r) {
    return sql.preparedQuery(ABRIR)
      .execute(Tuple.of(r.idEscritura(), r.actor(), r.servicio(), r.pedido(), r.tDet().atOffset(ZoneOffset.UTC)))
      .map(rows -> rows.rowCount() == 1);
  }

  /** Records that {@code hecho} is done; false if another runner recorded it first. */
  Future<Boolean> avanzar(Reaccion r, Paso hecho) {
    return sql.preparedQuery(AVANZAR).execute(Tuple.of(r.idEscritura(), r.paso().name(), hecho.name()))
      .map(rows -> rows.rowCount() == 1);
  }

  /** Reactions not finished and not moved for {@code quietMs}: their runner died (or never started). */
  Future<List<Reaccion>> estancadas(long quietMs) {
    return sql.preparedQuery(ESTANCADAS).execute(Tuple.of(quietMs)).map(rows -> {
      List<Reaccion> list = new ArrayList<>();
      for (Row row : rows) {
        list.add(new Reaccion(row.getUUID("id_escritura"), row.getString("actor"), row.getString("servicio"),
          row.getString("pedido"), row.getOffsetDateTime("t_det").toInstant(), Paso.valueOf(row.getString("paso"))));
      }
      return list;
    });
  }

  /** B8–B9: one upsert into the Lista de revocación; a later expiry never shortens an earlier one. */
  Future<Void> revocar(Reaccion r, int horas) {
    return sql.preparedQuery(REVOCAR)
      .execute(Tuple.of(r.actor(), horas, "escritura indebida en " + r.servicio() + " (pedido " + r.pedido() + ")", r.idEscritura()))
      .mapEmpty();
  }
}
