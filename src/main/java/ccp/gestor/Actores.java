package ccp.gestor;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Gestor's actors and sessions ({@code gestor.actores}, {@code gestor.sesiones}). A session is active while it
 * is not terminated and its actor is not blocked: the block itself (one conditional update of the actor's row) is
 * what ends every session, at the instant it commits, without locking the row on the session path. Setting
 * {@code terminada_en} afterwards records it.
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

  private static final String ABRIR = """
    INSERT INTO gestor.sesiones (id, actor, huella) SELECT $1, id, $3 FROM gestor.actores WHERE id = $2 AND NOT bloqueado""";
  private static final String CANCELAR = "UPDATE gestor.sesiones SET terminada_en = now(), motivo_fin = 'NO_PUBLICADA' WHERE id = $1";
  private static final String BORRAR_SESIONES = "DELETE FROM gestor.sesiones WHERE actor = $1";
  private static final String PERMISOS_DE = "SELECT id, perfil, bloqueado FROM gestor.actores WHERE id = ANY ($1)";
  private static final String BLOQUEAR = "UPDATE gestor.actores SET bloqueado = true WHERE id = $1";
  private static final String TERMINAR_SESIONES = """
    UPDATE gestor.sesiones SET terminada_en = now(), motivo_fin = 'BLOQUEO'
    WHERE actor = $1 AND terminada_en IS NULL""";

  private final SqlClient sql;

  Actores(SqlClient sql) {
    this.sql = sql;
  }

  /** One insert on the common path; only a refused session costs a second read, to say why. */
  Future<Apertura> abrirSesion(String sesion, String actor, String huella) {
    return sql.preparedQuery(ABRIR).execute(Tuple.of(java.util.UUID.fromString(sesion), actor, huella)).compose(rows ->
      rows.rowCount() == 1
        ? Future.succeededFuture(Apertura.ABIERTA)
        : permisos(actor).map(p -> p.isEmpty() ? Apertura.DESCONOCIDO : Apertura.BLOQUEADO));
  }

  /** A session whose event the broker did not take is closed again: the App was told to retry. */
  Future<Void> cancelarSesion(String sesion) {
    return sql.preparedQuery(CANCELAR).execute(Tuple.of(java.util.UUID.fromString(sesion))).mapEmpty();
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
