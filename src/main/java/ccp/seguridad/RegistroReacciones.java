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
import java.util.Optional;
import java.util.UUID;

/**
 * RegistroReacciones and the Lista de revocación ({@code seguridad.registro_reacciones}, {@code seguridad.lista_revocacion}):
 * the reaction's persisted progress with its failed tries, and the one writer of the list and of its lifts
 * ({@code seguridad.levantamientos}).
 */
final class RegistroReacciones {

  /**
   * The steps of the view's ordered reaction (B7–B13), each the state after it is done; LEVANTADA ends it without
   * further steps, when a SEGURIDAD person lifted the actor's revocation.
   */
  enum Paso { ABIERTA, REVOCADA, BLOQUEADA, COMPENSADA, NOTIFICADA, LEVANTADA }

  /** A failed try of a step, as recorded: the tries so far, and whether the area was already told the reaction is stuck. */
  record Fallo(int intentos, boolean avisada) {}

  /** What a lift removed and who lifted it ({@code seguridad.levantamientos}). */
  record Levantamiento(String actor, String levantadoPor, Instant levantadoEn, String motivo, Instant revocadoEn,
                       String motivoRevocacion, List<UUID> reaccionesDetenidas) {
    JsonObject toJson() {
      return new JsonObject().put("actor", actor).put("levantado_por", levantadoPor).put("levantado_en", levantadoEn.toString())
        .put("motivo", motivo).put("revocado_en", revocadoEn.toString()).put("motivo_revocacion", motivoRevocacion)
        .put("reacciones_detenidas", reaccionesDetenidas.stream().map(UUID::toString).toList());
    }
  }

  /**
   * @param pedido what the improper write made ({@code registro_reacciones.pedido}): the order, or for {@code inventario}
   *               the stock adjustment
   */
  record Reaccion(UUID idEscritura, String actor, String servicio, String pedido, Instant tDet, Paso paso) {
    /** What the write made is a {@code pedido} or, in Inventario, an {@code ajuste}: the name alerts give it. */
    String campo() {
      return "inventario".equals(servicio) ? "ajuste" : "pedido";
    }

    /** What the write made, named for a person: "pedido …" or "ajuste …". */
    String escrito() {
      return campo() + " " + pedido;
    }

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
    INSERT INTO seguridad.registro_reacciones (id_escritura, actor, servicio, pedido, t_det, paso, t_escritura)
    VALUES ($1, $2, $3, $4, $5, 'ABIERTA', $6)
    ON CONFLICT (id_escritura) DO NOTHING""";
  private static final String AVANZAR = """
    UPDATE seguridad.registro_reacciones
    SET paso = $3, actualizada_en = now(), intentos = 0, ultimo_error = NULL,
        revocada_en = CASE WHEN $3 = 'REVOCADA' THEN now() ELSE revocada_en END,
        bloqueada_en = CASE WHEN $3 = 'BLOQUEADA' THEN now() ELSE bloqueada_en END,
        compensada_en = CASE WHEN $3 = 'COMPENSADA' THEN now() ELSE compensada_en END
    WHERE id_escritura = $1 AND paso = $2""";
  /**
   * The last step: the reaction is finished, and its actor's revocation starts its hours — unless another reaction of
   * the same actor is still unfinished, which keeps it in force.
   */
  private static final String TERMINAR = """
    WITH hecho AS (
           UPDATE seguridad.registro_reacciones SET paso = 'NOTIFICADA', actualizada_en = now(), terminada_en = now()
           WHERE id_escritura = $1 AND paso = 'COMPENSADA'
           RETURNING actor),
         vence AS (
           UPDATE seguridad.lista_revocacion l SET vence_en = now() + make_interval(hours => $2)
           WHERE l.actor IN (SELECT actor FROM hecho) AND l.vence_en = 'infinity'
             AND NOT EXISTS (SELECT 1 FROM seguridad.registro_reacciones o
                             WHERE o.actor = l.actor AND o.id_escritura <> $1 AND o.paso NOT IN ('NOTIFICADA', 'LEVANTADA')))
    SELECT count(*) AS terminada FROM hecho""";
  private static final String FALLO = """
    UPDATE seguridad.registro_reacciones SET intentos = intentos + 1, ultimo_error = $3, actualizada_en = now()
    WHERE id_escritura = $1 AND paso = $2
    RETURNING intentos, detenida_avisada_en IS NOT NULL AS avisada""";
  private static final String COMPENSADA = """
    UPDATE seguridad.registro_reacciones SET compensacion = $2 WHERE id_escritura = $1 AND paso = 'BLOQUEADA'""";
  private static final String COMPENSACION = "SELECT compensacion FROM seguridad.registro_reacciones WHERE id_escritura = $1";
  private static final String AVISADA = """
    UPDATE seguridad.registro_reacciones SET detenida_avisada_en = now()
    WHERE id_escritura = $1 AND detenida_avisada_en IS NULL""";
  /**
   * The lift: the revocation goes, the actor's unfinished reactions end (LEVANTADA) and the audit row is written — one
   * statement, so none of the three happens without the others.
   */
  private static final String LEVANTAR = """
    WITH quitada AS (
           DELETE FROM seguridad.lista_revocacion WHERE actor = $1
           RETURNING actor, revocado_en, motivo, id_escritura),
         detenidas AS (
           UPDATE seguridad.registro_reacciones SET paso = 'LEVANTADA', actualizada_en = now(), terminada_en = now()
           WHERE actor IN (SELECT actor FROM quitada) AND paso NOT IN ('NOTIFICADA', 'LEVANTADA')
           RETURNING id_escritura)
    INSERT INTO seguridad.levantamientos (actor, levantado_por, motivo, revocado_en, motivo_revocacion, id_escritura,
                                          reacciones_detenidas)
    SELECT actor, $2, $3, revocado_en, motivo, id_escritura, ARRAY(SELECT id_escritura FROM detenidas) FROM quitada
    RETURNING actor, levantado_por, levantado_en, motivo, revocado_en, motivo_revocacion, reacciones_detenidas""";
  private static final String ESTANCADAS = """
    SELECT id_escritura, actor, servicio, pedido, t_det, paso FROM seguridad.registro_reacciones
    WHERE paso NOT IN ('NOTIFICADA', 'LEVANTADA') AND actualizada_en < now() - make_interval(secs => $1::float8 / 1000)
    ORDER BY actualizada_en LIMIT 100""";
  /**
   * Until the reaction finishes ({@link #TERMINAR}) or a person lifts it ({@link #LEVANTAR}): it never expires meanwhile.
   * A lapsed revocation of the actor (one that expired, not lifted) starts anew with this write as its cause.
   */
  private static final String REVOCAR = """
    INSERT INTO seguridad.lista_revocacion AS l (actor, revocado_en, vence_en, motivo, id_escritura)
    VALUES ($1, now(), 'infinity', $2, $3)
    ON CONFLICT (actor) DO UPDATE SET vence_en = 'infinity',
      revocado_en = CASE WHEN l.vence_en <= now() THEN EXCLUDED.revocado_en ELSE l.revocado_en END,
      motivo = CASE WHEN l.vence_en <= now() THEN EXCLUDED.motivo ELSE l.motivo END,
      id_escritura = CASE WHEN l.vence_en <= now() THEN EXCLUDED.id_escritura ELSE l.id_escritura END""";

  /**
   * A SET from the identity provider (Shared Signals receiver): recorded once per (iss, jti), and in the same statement
   * its actor revoked for {@code $5} hours — or longer, if a revocation in force already lasts longer. A revocation
   * that had lapsed starts anew with this reason.
   */
  private static final String REVOCAR_POR_SENAL = """
    WITH nueva AS (
           INSERT INTO seguridad.ssf_recibidos (iss, jti, tipo_evento, actor) VALUES ($1, $2, $3, $4)
           ON CONFLICT (iss, jti) DO NOTHING
           RETURNING actor),
         revocada AS (
           INSERT INTO seguridad.lista_revocacion AS l (actor, revocado_en, vence_en, motivo)
           SELECT actor, now(), now() + make_interval(hours => $5), $6 FROM nueva
           ON CONFLICT (actor) DO UPDATE SET
             revocado_en = CASE WHEN l.vence_en <= now() THEN EXCLUDED.revocado_en ELSE l.revocado_en END,
             motivo = CASE WHEN l.vence_en <= now() THEN EXCLUDED.motivo ELSE l.motivo END,
             vence_en = greatest(l.vence_en, EXCLUDED.vence_en))
    SELECT EXISTS (SELECT 1 FROM nueva) AS nueva,
           coalesce((SELECT alerta_publicada_en IS NOT NULL FROM seguridad.ssf_recibidos WHERE iss = $1 AND jti = $2), false)
             AS alerta_publicada""";
  private static final String ALERTA_PUBLICADA = """
    UPDATE seguridad.ssf_recibidos SET alerta_publicada_en = now()
    WHERE iss = $1 AND jti = $2 AND alerta_publicada_en IS NULL""";

  /** A received SET: whether this call recorded it, and whether its alert was already published by an earlier one. */
  record Recibida(boolean nueva, boolean alertaPublicada) {}

  private final SqlClient sql;

  RegistroReacciones(SqlClient sql) {
    this.sql = sql;
  }

  /**
   * B7: true if this call opened it; false if the reaction to this write was already open. {@code tEscritura}: when the
   * write was made (null if its event did not say), kept for the area's timeline.
   */
  Future<Boolean> abrir(Reaccion r, Instant tEscritura) {
    return sql.preparedQuery(ABRIR)
      .execute(Tuple.of(r.idEscritura(), r.actor(), r.servicio(), r.pedido(), r.tDet().atOffset(ZoneOffset.UTC),
        tEscritura == null ? null : tEscritura.atOffset(ZoneOffset.UTC)))
      .map(rows -> rows.rowCount() == 1);
  }

  /** Records that {@code hecho} is done (its failed tries start again from none); false if another runner recorded it first. */
  Future<Boolean> avanzar(Reaccion r, Paso hecho) {
    return sql.preparedQuery(AVANZAR).execute(Tuple.of(r.idEscritura(), r.paso().name(), hecho.name()))
      .map(rows -> rows.rowCount() == 1);
  }

  /** B13 recorded: the reaction is finished; false if another runner recorded it first (or it was lifted). */
  Future<Boolean> terminar(Reaccion r, int revocacionHoras) {
    return sql.preparedQuery(TERMINAR).execute(Tuple.of(r.idEscritura(), revocacionHoras))
      .map(rows -> rows.iterator().next().getLong("terminada") == 1);
  }

  /** Counts a failed try of the step after {@code r.paso()}; empty if the reaction moved meanwhile (another runner, a lift). */
  Future<Optional<Fallo>> fallo(Reaccion r, String error) {
    return sql.preparedQuery(FALLO).execute(Tuple.of(r.idEscritura(), r.paso().name(), error)).map(rows -> {
      if (rows.rowCount() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new Fallo(row.getInteger("intentos"), row.getBoolean("avisada")));
    });
  }

  /** B11 done: what the compensation did, recorded before the reaction moves on, for the alert (B14). */
  Future<Void> compensada(Reaccion r, JsonObject compensacion) {
    return sql.preparedQuery(COMPENSADA).execute(Tuple.of(r.idEscritura(), compensacion)).mapEmpty();
  }

  /** What the compensation did; null for a reaction compensated before it was recorded. */
  Future<JsonObject> compensacion(Reaccion r) {
    return sql.preparedQuery(COMPENSACION).execute(Tuple.of(r.idEscritura()))
      .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getJsonObject("compensacion"));
  }

  /** The area and the Bandeja were told the reaction is stuck. */
  Future<Void> avisada(Reaccion r) {
    return sql.preparedQuery(AVISADA).execute(Tuple.of(r.idEscritura())).mapEmpty();
  }

  /** Lifts {@code actor}'s revocation on behalf of {@code por}; empty when the actor is not revoked. */
  Future<Optional<Levantamiento>> levantar(String actor, String por, String motivo) {
    return sql.preparedQuery(LEVANTAR).execute(Tuple.of(actor, por, motivo)).map(rows -> {
      if (rows.rowCount() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new Levantamiento(row.getString("actor"), row.getString("levantado_por"),
        row.getOffsetDateTime("levantado_en").toInstant(), row.getString("motivo"), row.getOffsetDateTime("revocado_en").toInstant(),
        row.getString("motivo_revocacion"), List.of(row.getArrayOfUUIDs("reacciones_detenidas"))));
    });
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

  /** B8–B9: one upsert into the Lista de revocación, in force until the reaction finishes. */
  Future<Void> revocar(Reaccion r) {
    return sql.preparedQuery(REVOCAR)
      .execute(Tuple.of(r.actor(), "escritura indebida en " + r.servicio() + " (" + r.escrito() + ")", r.idEscritura()))
      .mapEmpty();
  }

  Future<Recibida> revocarPorSenal(String iss, String jti, String tipoEvento, String actor, int horas, String motivo) {
    return sql.preparedQuery(REVOCAR_POR_SENAL).execute(Tuple.of(iss, jti, tipoEvento, actor, horas, motivo)).map(rows -> {
      Row row = rows.iterator().next();
      return new Recibida(row.getBoolean("nueva"), row.getBoolean("alerta_publicada"));
    });
  }

  Future<Void> alertaPublicada(String iss, String jti) {
    return sql.preparedQuery(ALERTA_PUBLICADA).execute(Tuple.of(iss, jti)).mapEmpty();
  }
}
