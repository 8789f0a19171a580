package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** RepositorioCadena ({@code cadena.cadenas}, {@code cadena.cadena_etapa}): the chain's guarded state. */
final class RepositorioCadena {

  /** The stage in flight and its attempt: what a command must carry. */
  record EnCurso(Etapa etapa, int intento) {}

  /**
   * Steps 2–4 in one statement: the chain and its three stage rows, the first EN_CURSO with its deadline. A chain
   * that exists already is left as it is and answers its stage in flight (its command may never have been sent).
   */
  private static final String INICIAR = """
    WITH nueva AS (
           INSERT INTO cadena.cadenas (pedido, actor, lineas, estado) VALUES ($1, $4, $2, 'EN_CURSO')
           ON CONFLICT (pedido) DO NOTHING
           RETURNING pedido),
         etapas AS (
           INSERT INTO cadena.cadena_etapa (pedido, etapa, orden, estado, intento, plazo, en_curso_desde)
           SELECT nueva.pedido, e.etapa, e.orden,
                  CASE WHEN e.orden = 1 THEN 'EN_CURSO' ELSE 'PENDIENTE' END,
                  CASE WHEN e.orden = 1 THEN 1 ELSE 0 END,
                  CASE WHEN e.orden = 1 THEN now() + make_interval(secs => $3::float8 / 1000) END,
                  CASE WHEN e.orden = 1 THEN now() END
           FROM nueva, (VALUES ('FACTURACION', 1), ('INVENTARIO', 2), ('DESPACHO', 3)) AS e (etapa, orden))
    SELECT 'FACTURACION' AS etapa, 1 AS intento FROM nueva
    UNION ALL
    SELECT etapa, intento FROM cadena.cadena_etapa WHERE pedido = $1 AND estado IN ('EN_CURSO', 'EN_REINTENTO')""";

  /**
   * Step 11: the stage confirmed and the next one EN_CURSO with its deadline — both or neither. A confirmation of an
   * escalated stage still counts (late, the view's open gap). Answers the next attempt, the order's lines, and the
   * confirmed stage's state before (EN_REINTENTO: a retry confirmed; ESCALADA: late) with its retry start.
   */
  private static final String AVANZAR = """
    WITH previa AS (SELECT estado, reintento_desde FROM cadena.cadena_etapa WHERE pedido = $1 AND etapa = $2),
         hecha AS (
           UPDATE cadena.cadena_etapa SET estado = 'COMPLETADA', actualizada_en = now()
           WHERE pedido = $1 AND etapa = $2 AND estado IN ('EN_CURSO', 'EN_REINTENTO', 'ESCALADA')
           RETURNING pedido),
         siguiente AS (
           UPDATE cadena.cadena_etapa e
           SET estado = 'EN_CURSO', intento = 1, plazo = now() + make_interval(secs => $4::float8 / 1000),
               en_curso_desde = now(), actualizada_en = now()
           FROM hecha, cadena.cadenas c
           WHERE e.pedido = hecha.pedido AND e.etapa = $3 AND e.estado = 'PENDIENTE' AND c.pedido = hecha.pedido
             AND c.estado = 'EN_CURSO'
           RETURNING e.intento, c.lineas)
    SELECT siguiente.intento, siguiente.lineas, previa.estado AS antes, previa.reintento_desde FROM siguiente, previa""";

  /** Step 12: the last stage confirmed and the chain LISTO — both or neither; answers as {@link #AVANZAR} does. */
  private static final String TERMINAR = """
    WITH previa AS (SELECT estado, reintento_desde FROM cadena.cadena_etapa WHERE pedido = $1 AND etapa = $2),
         hecha AS (
           UPDATE cadena.cadena_etapa SET estado = 'COMPLETADA', actualizada_en = now()
           WHERE pedido = $1 AND etapa = $2 AND estado IN ('EN_CURSO', 'EN_REINTENTO', 'ESCALADA')
           RETURNING pedido),
         lista AS (
           UPDATE cadena.cadenas c SET estado = 'LISTO', terminada_en = now()
           FROM hecha WHERE c.pedido = hecha.pedido AND c.estado = 'EN_CURSO'
           RETURNING c.pedido, c.iniciada_en)
    SELECT previa.estado AS antes, previa.reintento_desde, lista.iniciada_en FROM lista, previa""";

  /** A stage answered that the order cannot go on (no stock): the stage RECHAZADA and the chain RECHAZADO. */
  private static final String RECHAZAR = """
    WITH hecha AS (
           UPDATE cadena.cadena_etapa SET estado = 'RECHAZADA', actualizada_en = now()
           WHERE pedido = $1 AND etapa = $2 AND estado IN ('EN_CURSO', 'EN_REINTENTO')
           RETURNING pedido)
    UPDATE cadena.cadenas c SET estado = 'RECHAZADO', terminada_en = now()
    FROM hecha WHERE c.pedido = hecha.pedido AND c.estado = 'EN_CURSO'
    RETURNING c.pedido""";

  /** What a repeated confirmation must make sure was sent: the stage now in flight, or the chain's end. */
  private static final String SITUACION = """
    SELECT c.estado AS cadena, c.lineas, e.etapa, e.estado, e.intento
    FROM cadena.cadenas c JOIN cadena.cadena_etapa e ON e.pedido = c.pedido
    WHERE c.pedido = $1 ORDER BY e.orden""";

  record Situacion(String cadena, JsonArray lineas, List<String> etapas, List<String> estados, List<Integer> intentos) {}

  /**
   * The Reacción stops an annulled order's chain: DETENIDO whether it runs, finished, or has not started yet (a chain
   * that starts later finds the row and does nothing).
   */
  private static final String DETENER = """
    INSERT INTO cadena.cadenas (pedido, actor, lineas, estado, terminada_en) VALUES ($1, $2, '[]', 'DETENIDO', now())
    ON CONFLICT (pedido) DO UPDATE SET estado = 'DETENIDO', terminada_en = now()
    WHERE cadenas.estado IN ('EN_CURSO', 'LISTO')""";

  private final SqlClient sql;

  RepositorioCadena(SqlClient sql) {
    this.sql = sql;
  }

  /** What a confirmation moved: the confirmed stage's state before, and what the next stage needs. */
  record Avance(String antes, OffsetDateTime reintentoDesde, int intento, JsonArray lineas, OffsetDateTime iniciada) {}

  /** Empty if the chain had moved past this confirmation already. */
  Future<Optional<Avance>> avanzar(UUID pedido, Etapa hecha, Etapa siguiente, long plazoMs) {
    return sql.preparedQuery(AVANZAR).execute(Tuple.of(pedido, hecha.name(), siguiente.name(), plazoMs)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new Avance(row.getString("antes"), row.getOffsetDateTime("reintento_desde"), row.getInteger("intento"),
        row.getJsonArray("lineas"), null));
    });
  }

  Future<Optional<Avance>> terminar(UUID pedido, Etapa ultima) {
    return sql.preparedQuery(TERMINAR).execute(Tuple.of(pedido, ultima.name())).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new Avance(row.getString("antes"), row.getOffsetDateTime("reintento_desde"), 0, null,
        row.getOffsetDateTime("iniciada_en")));
    });
  }

  Future<Boolean> rechazar(UUID pedido, Etapa etapa) {
    return sql.preparedQuery(RECHAZAR).execute(Tuple.of(pedido, etapa.name())).map(rows -> rows.size() == 1);
  }

  Future<Optional<Situacion>> situacion(UUID pedido) {
    return sql.preparedQuery(SITUACION).execute(Tuple.of(pedido)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      List<String> etapas = new ArrayList<>();
      List<String> estados = new ArrayList<>();
      List<Integer> intentos = new ArrayList<>();
      String cadena = null;
      JsonArray lineas = null;
      for (Row row : rows) {
        cadena = row.getString("cadena");
        lineas = row.getJsonArray("lineas");
        etapas.add(row.getString("etapa"));
        estados.add(row.getString("estado"));
        intentos.add(row.getInteger("intento"));
      }
      return Optional.of(new Situacion(cadena, lineas, etapas, estados, intentos));
    });
  }

  Future<Void> detener(UUID pedido, String actor) {
    return sql.preparedQuery(DETENER).execute(Tuple.of(pedido, actor)).mapEmpty();
  }

  Future<List<EnCurso>> iniciar(UUID pedido, String actor, JsonArray lineas, long plazoMs) {
    return sql.preparedQuery(INICIAR).execute(Tuple.of(pedido, lineas, plazoMs, actor)).map(rows -> {
      List<EnCurso> enCurso = new ArrayList<>();
      for (Row row : rows) enCurso.add(new EnCurso(Etapa.valueOf(row.getString("etapa")), row.getInteger("intento")));
      return enCurso;
    });
  }
}
