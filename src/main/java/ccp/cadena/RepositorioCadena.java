package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** RepositorioCadena ({@code cadena.cadenas}, {@code cadena.cadena_etapa}): the chain's guarded state. */
final class RepositorioCadena {

  /** The stage in flight and its attempt: what a command must carry. */
  record EnCurso(Etapa etapa, int intento) {}

  /**
   * Steps 2–4 for a batch of orders in one statement: each chain and its three stage rows, the first EN_CURSO with its
   * deadline. A chain that exists already is left as it is and answers its stage in flight (its command may never have
   * been sent). Keys are inserted in order, so two batches of it never wait on each other in a cycle.
   */
  private static final String INICIAR = """
    WITH entrada AS (
           SELECT t.pedido, t.actor, t.lineas FROM jsonb_to_recordset($1::jsonb) AS t (pedido uuid, actor text, lineas jsonb)),
         nueva AS (
           INSERT INTO cadena.cadenas (pedido, actor, lineas, estado)
           SELECT pedido, actor, lineas, 'EN_CURSO' FROM entrada ORDER BY pedido
           ON CONFLICT (pedido) DO NOTHING
           RETURNING pedido),
         etapas AS (
           INSERT INTO cadena.cadena_etapa (pedido, etapa, orden, estado, intento, plazo, en_curso_desde)
           SELECT nueva.pedido, e.etapa, e.orden,
                  CASE WHEN e.orden = 1 THEN 'EN_CURSO' ELSE 'PENDIENTE' END,
                  CASE WHEN e.orden = 1 THEN 1 ELSE 0 END,
                  CASE WHEN e.orden = 1 THEN now() + make_interval(secs => $2::float8 / 1000) END,
                  CASE WHEN e.orden = 1 THEN now() END
           FROM nueva, (VALUES ('FACTURACION', 1), ('INVENTARIO', 2), ('DESPACHO', 3)) AS e (etapa, orden))
    SELECT pedido, 'FACTURACION' AS etapa, 1 AS intento FROM nueva
    UNION ALL
    SELECT e.pedido, e.etapa, e.intento FROM cadena.cadena_etapa e JOIN entrada USING (pedido)
    WHERE e.estado IN ('EN_CURSO', 'EN_REINTENTO')""";

  /**
   * Steps 11 and 12 for a batch of confirmations in one statement. For each: the stage confirmed and, if it has a next,
   * that one EN_CURSO with its deadline; if it was the last, the chain LISTO — both or neither. A confirmation of an
   * escalated stage still counts (late, the view's open gap). Answers, for each confirmation that moved its chain, the
   * next attempt and the order's lines (or when the chain began, after the last), and the confirmed stage's state
   * before (EN_REINTENTO: a retry confirmed; ESCALADA: late) with its retry start.
   */
  private static final String AVANZAR = """
    WITH entrada AS (
           SELECT t.pedido, t.hecha, t.siguiente FROM jsonb_to_recordset($1::jsonb) AS t (pedido uuid, hecha text, siguiente text)),
         previa AS (
           SELECT e.pedido, e.estado, e.reintento_desde FROM cadena.cadena_etapa e
           JOIN entrada ON e.pedido = entrada.pedido AND e.etapa = entrada.hecha),
         hecha AS (
           UPDATE cadena.cadena_etapa e SET estado = 'COMPLETADA', actualizada_en = now()
           FROM entrada
           WHERE e.pedido = entrada.pedido AND e.etapa = entrada.hecha AND e.estado IN ('EN_CURSO', 'EN_REINTENTO', 'ESCALADA')
           RETURNING e.pedido, entrada.siguiente),
         siguiente AS (
           UPDATE cadena.cadena_etapa e
           SET estado = 'EN_CURSO', intento = 1, plazo = now() + make_interval(secs => $2::float8 / 1000),
               en_curso_desde = now(), actualizada_en = now()
           FROM hecha, cadena.cadenas c
           WHERE e.pedido = hecha.pedido AND e.etapa = hecha.siguiente AND e.estado = 'PENDIENTE' AND c.pedido = hecha.pedido
             AND c.estado = 'EN_CURSO'
           RETURNING e.pedido, e.intento, c.lineas),
         lista AS (
           UPDATE cadena.cadenas c SET estado = 'LISTO', terminada_en = now()
           FROM hecha WHERE hecha.siguiente IS NULL AND c.pedido = hecha.pedido AND c.estado = 'EN_CURSO'
           RETURNING c.pedido, c.iniciada_en)
    SELECT s.pedido, s.intento, s.lineas, NULL::timestamptz AS iniciada_en, p.estado AS antes, p.reintento_desde
    FROM siguiente s JOIN previa p USING (pedido)
    UNION ALL
    SELECT l.pedido, 0, NULL::jsonb, l.iniciada_en, p.estado, p.reintento_desde
    FROM lista l JOIN previa p USING (pedido)""";

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

  /** A confirmed stage and the one that follows it ({@code null} after the last). */
  record Confirmacion(UUID pedido, Etapa hecha, Etapa siguiente) {}

  /** A chain to start. */
  record Inicio(UUID pedido, String actor, JsonArray lineas) {}

  /** Answers each confirmation that moved its chain; one that the chain had moved past already has none. */
  Future<Map<UUID, Avance>> avanzar(List<Confirmacion> lote, long plazoMs) {
    JsonArray entrada = new JsonArray();
    for (Confirmacion c : lote) {
      entrada.add(new JsonObject().put("pedido", c.pedido().toString()).put("hecha", c.hecha().name())
        .put("siguiente", c.siguiente() == null ? null : c.siguiente().name()));
    }
    return sql.preparedQuery(AVANZAR).execute(Tuple.of(entrada, plazoMs)).map(rows -> {
      Map<UUID, Avance> avances = new HashMap<>();
      for (Row row : rows) {
        avances.put(row.getUUID("pedido"), new Avance(row.getString("antes"), row.getOffsetDateTime("reintento_desde"),
          row.getInteger("intento"), row.getJsonArray("lineas"), row.getOffsetDateTime("iniciada_en")));
      }
      return avances;
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

  /** Answers, for each order, the stages in flight whose commands must be sent (none for a chain past them). */
  Future<Map<UUID, List<EnCurso>>> iniciar(List<Inicio> lote, long plazoMs) {
    JsonArray entrada = new JsonArray();
    for (Inicio i : lote) entrada.add(new JsonObject().put("pedido", i.pedido().toString()).put("actor", i.actor()).put("lineas", i.lineas()));
    return sql.preparedQuery(INICIAR).execute(Tuple.of(entrada, plazoMs)).map(rows -> {
      Map<UUID, List<EnCurso>> enCurso = new HashMap<>();
      for (Row row : rows) {
        enCurso.computeIfAbsent(row.getUUID("pedido"), k -> new ArrayList<>())
          .add(new EnCurso(Etapa.valueOf(row.getString("etapa")), row.getInteger("intento")));
      }
      return enCurso;
    });
  }
}
