package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * RepositorioCadena ({@code cadena.cadenas}, {@code cadena.cadena_etapa}): the chain's guarded state, and the only
 * class that reads or writes it. Every effect is one conditional statement: of two writers racing on a row (a
 * confirmation and an escalation, two retries), the one whose statement matches nothing lost. Its writers are the
 * Coordinador (steps 2–12), the Reanudador (R6–R9) and the Bandeja's retry; the Monitor de la cadena (vigilancia) reads
 * it to register its signals (R1–R3), which is all this class shows outside its package.
 */
public final class RepositorioCadena {

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

  /**
   * The Reacción stops an annulled order's chain: DETENIDO whether it runs, finished, or has not started yet (a chain
   * that starts later finds the row and does nothing).
   */
  private static final String DETENER = """
    INSERT INTO cadena.cadenas (pedido, actor, lineas, estado, terminada_en) VALUES ($1, $2, '[]', 'DETENIDO', now())
    ON CONFLICT (pedido) DO UPDATE SET estado = 'DETENIDO', terminada_en = now()
    WHERE cadenas.estado IN ('EN_CURSO', 'LISTO')""";

  /** R6–R7: the signalled attempt, if it is still stopped, becomes the next one, with the Reanudador's wait. */
  private static final String REINTENTAR = """
    UPDATE cadena.cadena_etapa e
    SET estado = 'EN_REINTENTO', intento = e.intento + 1, plazo = now() + make_interval(secs => $4::float8 / 1000),
        reintento_desde = now(), actualizada_en = now()
    FROM cadena.cadenas c
    WHERE e.pedido = $1 AND e.etapa = $2 AND e.intento = $3 AND e.estado IN ('EN_CURSO', 'FALLIDA') AND c.pedido = e.pedido
    RETURNING e.intento, c.lineas""";

  /** R9: the retries that got no confirmation within their wait. */
  private static final String ESCALAR = """
    UPDATE cadena.cadena_etapa SET estado = 'ESCALADA', actualizada_en = now()
    WHERE (pedido, etapa) IN (
      SELECT pedido, etapa FROM cadena.cadena_etapa WHERE estado = 'EN_REINTENTO' AND plazo < now() LIMIT 500)
    AND estado = 'EN_REINTENTO'
    RETURNING pedido, etapa, intento, reintento_desde""";

  /** Escalations whose event is not acknowledged yet (the process that escalated them died before). */
  private static final String ESCALADAS_SIN_PUBLICAR = """
    SELECT pedido, etapa, intento, reintento_desde FROM cadena.cadena_etapa
    WHERE estado = 'ESCALADA' AND escalada_publicada_en IS NULL AND actualizada_en < now() - interval '2 seconds' LIMIT 500""";

  private static final String ESCALADA_PUBLICADA = """
    UPDATE cadena.cadena_etapa SET escalada_publicada_en = now() WHERE pedido = $1 AND etapa = $2 AND escalada_publicada_en IS NULL""";

  /** The Bandeja's retry: an escalated stage goes back to EN_REINTENTO with a new attempt, its escalation re-armed. */
  private static final String REINTENTAR_ESCALADA = """
    UPDATE cadena.cadena_etapa e
    SET estado = 'EN_REINTENTO', intento = e.intento + 1, plazo = now() + make_interval(secs => $3::float8 / 1000),
        reintento_desde = now(), escalada_publicada_en = NULL, actualizada_en = now()
    FROM cadena.cadenas c
    WHERE e.pedido = $1 AND e.etapa = $2 AND e.estado = 'ESCALADA' AND c.pedido = e.pedido
    RETURNING e.intento, c.lineas""";

  /**
   * The Bandeja's item for an escalation. It reads the stage's state in the same statement: an escalation whose stage
   * was confirmed meanwhile (late) enters closed, with that reason.
   */
  private static final String ITEM_ESCALADA = """
    INSERT INTO cadena.bandeja (id, tipo, pedido, etapa, detalle, estado, cerrada_en, cierre)
    SELECT $1, 'ESCALADA', $2, $3, $4, CASE WHEN completada THEN 'CERRADO' ELSE 'ABIERTO' END,
           CASE WHEN completada THEN now() END, CASE WHEN completada THEN 'confirmación tardía' END
    FROM (SELECT EXISTS (SELECT 1 FROM cadena.cadena_etapa WHERE pedido = $2 AND etapa = $3 AND estado = 'COMPLETADA') AS completada) s
    ON CONFLICT (id) DO NOTHING""";

  /** R1–R3: a signal in RegistroSenales for each stage past its deadline (read-only on the chain). */
  private static final String SENALAR_VENCIDAS = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT pedido, etapa, intento, 'PLAZO_VENCIDO' FROM cadena.cadena_etapa
    WHERE estado IN ('EN_CURSO', 'FALLIDA') AND plazo < now()
    ORDER BY plazo LIMIT 500
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  /** A stage started less than a second ago may not have reached its consumer yet: it is left to its deadline. */
  private static final String SENALAR_SIN_RESPUESTA = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT pedido, etapa, intento, 'SONDEO_SIN_RESPUESTA' FROM cadena.cadena_etapa
    WHERE etapa = $1 AND estado = 'EN_CURSO' AND en_curso_desde < now() - interval '1 second'
    LIMIT 500
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  private static final String SENALES_POR_PUBLICAR = """
    SELECT s.pedido, s.etapa, s.intento, s.motivo, c.actor, e.en_curso_desde
    FROM cadena.registro_senales s
    JOIN cadena.cadenas c ON c.pedido = s.pedido
    JOIN cadena.cadena_etapa e ON e.pedido = s.pedido AND e.etapa = s.etapa
    WHERE s.publicada_en IS NULL
    ORDER BY s.senalada_en LIMIT 500""";

  private static final String SENAL_PUBLICADA = """
    UPDATE cadena.registro_senales SET publicada_en = now()
    WHERE pedido = $1 AND etapa = $2 AND intento = $3 AND publicada_en IS NULL""";

  /** The stage in flight and its attempt: what a command must carry. */
  record EnCurso(Etapa etapa, int intento) {}

  /** What a confirmation moved: the confirmed stage's state before, and what the next stage needs. */
  record Avance(EstadoEtapa antes, OffsetDateTime reintentoDesde, int intento, JsonArray lineas, OffsetDateTime iniciada) {}

  /** A confirmed stage and the one that follows it ({@code null} after the last). */
  record Confirmacion(UUID pedido, Etapa hecha, Etapa siguiente) {}

  /** A chain to start. */
  record Inicio(UUID pedido, String actor, JsonArray lineas) {}

  /** An order's chain and each of its stages' state and attempt. */
  record Situacion(EstadoCadena cadena, JsonArray lineas, Map<Etapa, EstadoEtapa> estados, Map<Etapa, Integer> intentos) {}

  /** A stage's new attempt and what its command carries. */
  record Reintento(int intento, JsonArray lineas) {}

  /** An escalated stage: its last attempt and when its retry began. */
  record Escalada(UUID pedido, Etapa etapa, int intento, OffsetDateTime reintentoDesde) {}

  /** A signal of RegistroSenales to publish, with the order's vendedor and when the stopped attempt began. */
  public record Senal(UUID pedido, Etapa etapa, int intento, String motivo, String vendedor, OffsetDateTime enCursoDesde) {}

  private final SqlClient sql;

  public RepositorioCadena(SqlClient sql) {
    this.sql = sql;
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
        avances.put(row.getUUID("pedido"), new Avance(EstadoEtapa.valueOf(row.getString("antes")),
          row.getOffsetDateTime("reintento_desde"), row.getInteger("intento"), row.getJsonArray("lineas"),
          row.getOffsetDateTime("iniciada_en")));
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
      Map<Etapa, EstadoEtapa> estados = new EnumMap<>(Etapa.class);
      Map<Etapa, Integer> intentos = new EnumMap<>(Etapa.class);
      EstadoCadena cadena = null;
      JsonArray lineas = null;
      for (Row row : rows) {
        cadena = EstadoCadena.valueOf(row.getString("cadena"));
        lineas = row.getJsonArray("lineas");
        Etapa etapa = Etapa.valueOf(row.getString("etapa"));
        estados.put(etapa, EstadoEtapa.valueOf(row.getString("estado")));
        intentos.put(etapa, row.getInteger("intento"));
      }
      return Optional.of(new Situacion(cadena, lineas, estados, intentos));
    });
  }

  Future<Void> detener(UUID pedido, String actor) {
    return sql.preparedQuery(DETENER).execute(Tuple.of(pedido, actor)).mapEmpty();
  }

  /** R6–R7; empty when the attempt moved on already (confirmed, or retried by another signal). */
  Future<Optional<Reintento>> reintentar(UUID pedido, Etapa etapa, int intento, int esperaMs) {
    return sql.preparedQuery(REINTENTAR).execute(Tuple.of(pedido, etapa.name(), intento, esperaMs)).map(RepositorioCadena::reintento);
  }

  /** R9: escalates the retries past their wait and answers them. */
  Future<List<Escalada>> escalarVencidas() {
    return sql.preparedQuery(ESCALAR).execute().map(RepositorioCadena::escaladas);
  }

  Future<List<Escalada>> escaladasSinPublicar() {
    return sql.preparedQuery(ESCALADAS_SIN_PUBLICAR).execute().map(RepositorioCadena::escaladas);
  }

  Future<Void> escaladaPublicada(UUID pedido, Etapa etapa) {
    return sql.preparedQuery(ESCALADA_PUBLICADA).execute(Tuple.of(pedido, etapa.name())).mapEmpty();
  }

  /** Empty when the stage is no longer escalated (confirmed late, or retried already). */
  Future<Optional<Reintento>> reintentarEscalada(UUID pedido, Etapa etapa, int esperaMs) {
    return sql.preparedQuery(REINTENTAR_ESCALADA).execute(Tuple.of(pedido, etapa.name(), esperaMs)).map(RepositorioCadena::reintento);
  }

  /** Files an escalation in the Bandeja once per id ({@code cadena.bandeja}). */
  Future<Void> archivarEscalada(UUID id, UUID pedido, Etapa etapa, JsonObject detalle) {
    return sql.preparedQuery(ITEM_ESCALADA).execute(Tuple.of(id, pedido, etapa.name(), detalle)).mapEmpty();
  }

  /** R1–R3: registers a signal for each stage in flight past its deadline, once per attempt. */
  public Future<Void> senalarVencidas() {
    return sql.preparedQuery(SENALAR_VENCIDAS).execute().mapEmpty();
  }

  /** Registers a signal for each of {@code etapa}'s stages in flight (its consumers are gone); answers how many. */
  public Future<Integer> senalarSinRespuesta(Etapa etapa) {
    return sql.preparedQuery(SENALAR_SIN_RESPUESTA).execute(Tuple.of(etapa.name())).map(RowSet::rowCount);
  }

  /** The registered signals not yet acknowledged by the broker, oldest first. */
  public Future<List<Senal>> senalesPorPublicar() {
    return sql.preparedQuery(SENALES_POR_PUBLICAR).execute().map(rows -> {
      List<Senal> senales = new ArrayList<>();
      for (Row row : rows) {
        senales.add(new Senal(row.getUUID("pedido"), Etapa.valueOf(row.getString("etapa")), row.getInteger("intento"),
          row.getString("motivo"), row.getString("actor"), row.getOffsetDateTime("en_curso_desde")));
      }
      return senales;
    });
  }

  /** Whether this call marked the signal published (false: another monitor did first). */
  public Future<Boolean> senalPublicada(Senal senal) {
    return sql.preparedQuery(SENAL_PUBLICADA).execute(Tuple.of(senal.pedido(), senal.etapa().name(), senal.intento()))
      .map(rows -> rows.rowCount() == 1);
  }

  private static Optional<Reintento> reintento(RowSet<Row> rows) {
    if (rows.size() == 0) return Optional.empty();
    Row row = rows.iterator().next();
    return Optional.of(new Reintento(row.getInteger("intento"), row.getJsonArray("lineas")));
  }

  private static List<Escalada> escaladas(RowSet<Row> rows) {
    List<Escalada> escaladas = new ArrayList<>();
    for (Row row : rows) {
      escaladas.add(new Escalada(row.getUUID("pedido"), Etapa.valueOf(row.getString("etapa")), row.getInteger("intento"),
        row.getOffsetDateTime("reintento_desde")));
    }
    return escaladas;
  }
}
