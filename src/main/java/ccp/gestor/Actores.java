package ccp.gestor;

import ccp.platform.db.Combiner;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The Gestor's actors and sessions ({@code gestor.actores}, {@code gestor.sesiones}). A session is active while it
 * is not terminated and its actor is not blocked: the block itself (one conditional update of the actor's row) is
 * what ends every session, at the instant it commits, without locking the row on the session path. Setting
 * {@code terminada_en} afterwards records it.
 * <p>
 * The sessions one verticle opens while an insert is in flight are recorded by the next insert, together
 * ({@link Combiner}): every commit stays durable, and under load one commit serves many sessions.
 */
final class Actores {

  enum Apertura { ABIERTA, DESCONOCIDO, BLOQUEADO }

  record Permisos(String actor, String perfil, boolean bloqueado) {
    /**
     * The services the actor may write in now: a VENDEDOR writes orders (pedidos), BODEGA adjusts stock (inventario);
     * CONSULTA is read-only, SEGURIDAD reads alerts, OPERADOR works the Bandeja. A blocked actor writes nowhere.
     */
    List<String> escribeEn() {
      if (bloqueado) return List.of();
      return switch (perfil) {
        case "VENDEDOR" -> List.of("pedidos");
        case "BODEGA" -> List.of("inventario");
        default -> List.of();
      };
    }
  }

  /** The most sessions one insert records: a poll's worth, as the order chain's stages. */
  private static final int LOTE_MAX = 256;

  private record Solicitud(UUID sesion, String actor, String huella) {}

  /** A session of an unknown or blocked actor finds no row to join, so it is absent from what the insert returns. */
  private static final String ABRIR = """
    INSERT INTO gestor.sesiones (id, actor, huella)
    SELECT s.id, a.id, s.huella FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s (id, actor, huella)
    JOIN gestor.actores a ON a.id = s.actor AND NOT a.bloqueado
    RETURNING id""";
  private static final String CANCELAR = "UPDATE gestor.sesiones SET terminada_en = now(), motivo_fin = 'NO_PUBLICADA' WHERE id = $1";
  private static final String BORRAR_SESIONES = "DELETE FROM gestor.sesiones WHERE actor = $1";
  private static final String PERMISOS_DE = "SELECT id, perfil, bloqueado FROM gestor.actores WHERE id = ANY ($1)";
  private static final String BLOQUEAR = "UPDATE gestor.actores SET bloqueado = true WHERE id = $1";
  private static final String TERMINAR_SESIONES = """
    UPDATE gestor.sesiones SET terminada_en = now(), motivo_fin = 'BLOQUEO'
    WHERE actor = $1 AND terminada_en IS NULL""";

  private final SqlClient sql;
  private final Combiner<UUID, Solicitud, Boolean> aperturas;

  /** {@link #abrirSesion} must always be called on one context, its verticle's: the shared inserts are its state. */
  Actores(SqlClient sql) {
    this.sql = sql;
    this.aperturas = new Combiner<>(LOTE_MAX, Solicitud::sesion, this::abrir);
  }

  /** One insert (shared) on the common path; only a refused session costs a second read, to say why. */
  Future<Apertura> abrirSesion(String sesion, String actor, String huella) {
    return aperturas.submit(new Solicitud(UUID.fromString(sesion), actor, huella)).compose(abierta ->
      abierta != null
        ? Future.succeededFuture(Apertura.ABIERTA)
        : permisos(actor).map(p -> p.isEmpty() ? Apertura.DESCONOCIDO : Apertura.BLOQUEADO));
  }

  private Future<Map<UUID, Boolean>> abrir(List<Solicitud> lote) {
    UUID[] ids = new UUID[lote.size()];
    String[] actores = new String[lote.size()];
    String[] huellas = new String[lote.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = lote.get(i).sesion();
      actores[i] = lote.get(i).actor();
      huellas[i] = lote.get(i).huella();
    }
    return sql.preparedQuery(ABRIR).execute(Tuple.of(ids, actores, huellas))
      .map(rows -> Combiner.byKey(rows, row -> row.getUUID("id"), row -> Boolean.TRUE));
  }

  /** A session whose event the broker did not take is closed again: the App was told to retry. */
  Future<Void> cancelarSesion(String sesion) {
    return sql.preparedQuery(CANCELAR).execute(Tuple.of(UUID.fromString(sesion))).mapEmpty();
  }

  /** The warm-up's sessions, once it is over: they were never an App user's. */
  Future<Void> borrarSesiones(String actor) {
    return sql.preparedQuery(BORRAR_SESIONES).execute(Tuple.of(actor)).mapEmpty();
  }

  Future<Optional<Permisos>> permisos(String actor) {
    return permisos(List.of(actor)).map(found -> found.stream().findFirst());
  }

  /** The permissions of those of {@code actores} that are registered. */
  Future<List<Permisos>> permisos(List<String> actores) {
    return sql.preparedQuery(PERMISOS_DE).execute(Tuple.of(actores.toArray(String[]::new))).map(rows -> {
      List<Permisos> found = new ArrayList<>(rows.size());
      for (Row row : rows) found.add(new Permisos(row.getString("id"), row.getString("perfil"), row.getBoolean("bloqueado")));
      return found;
    });
  }

  /**
   * Blocks the actor (which ends its sessions), then records the end on the sessions open at that point. Both
   * statements are idempotent, so a repeated call changes nothing more.
   *
   * @return how many sessions this call ended, or empty for an unknown actor
   */
  Future<Optional<Integer>> bloquear(String actor) {
    return sql.preparedQuery(BLOQUEAR).execute(Tuple.of(actor)).compose(blocked -> blocked.rowCount() == 0
      ? Future.succeededFuture(Optional.empty())
      : sql.preparedQuery(TERMINAR_SESIONES).execute(Tuple.of(actor)).map(ended -> Optional.of(ended.rowCount())));
  }
}
