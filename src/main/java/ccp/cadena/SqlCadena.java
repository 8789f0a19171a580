package ccp.cadena;

/**
 * The statements of the chain and its stages ({@code cadena.cadenas}, {@code cadena.cadena_etapa}) for the Coordinador
 * (steps 2–12), the Reanudador (R6–R9), run by {@link RepositorioCadena}, and for the chain's readers: an order's chain
 * ({@link RepositorioCadenaDePedido}), Logística's finished orders ({@link RepositorioLogistica}).
 */
final class SqlCadena {

  private SqlCadena() {}

  /**
   * Steps 2–4 for a batch of orders in one statement: each chain and its three stage rows, the first EN_CURSO with its
   * deadline. A chain that exists already is left as it is and answers its stage in flight (its command may never have
   * been sent). Keys are inserted in order, so two batches of it never wait on each other in a cycle.
   */
  static final String INICIAR = """
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
   * before (EN_REINTENTO: a retry confirmed; ESCALADA: late) with its retry start. That state is read from the row
   * locked ({@code FOR UPDATE}), not from the statement's snapshot: an escalation that commits while this statement
   * waits on the row is seen as ESCALADA, so a late confirmation is never taken for a retry confirmed in time.
   * <p>
   * The rows are locked by one primary-key lookup per confirmation, in key order (so two batches never wait on each
   * other in a cycle), and the confirmed stages updated by the same keys (their array tells the planner how few). Not a
   * join: the planner takes {@code jsonb_to_recordset} for 100 rows, and while the table held up to tens of thousands
   * of rows it scanned all of it for every batch (the generic plan beside 8,547 rows: a scan of 205 buffers for 12
   * confirmations, against 96 buffers in all by key), so a confirmation cost more the longer the system had run.
   */
  static final String AVANZAR = """
    WITH entrada AS (
           SELECT t.pedido, t.hecha, t.siguiente FROM jsonb_to_recordset($1::jsonb) AS t (pedido uuid, hecha text, siguiente text)),
         previa AS (
           SELECT e.pedido, e.etapa, e.estado, e.reintento_desde, entrada.siguiente
           FROM (SELECT * FROM entrada ORDER BY pedido, hecha) entrada
           CROSS JOIN LATERAL (
             SELECT e.pedido, e.etapa, e.estado, e.reintento_desde FROM cadena.cadena_etapa e
             WHERE e.pedido = entrada.pedido AND e.etapa = entrada.hecha
             FOR UPDATE) e),
         hecha AS (
           UPDATE cadena.cadena_etapa e SET estado = 'COMPLETADA', actualizada_en = now()
           FROM previa
           WHERE e.pedido = previa.pedido AND e.etapa = previa.etapa AND e.estado IN ('EN_CURSO', 'EN_REINTENTO', 'ESCALADA')
             AND e.pedido = ANY (ARRAY(SELECT pedido FROM previa))
           RETURNING e.pedido, previa.siguiente, previa.estado, previa.reintento_desde),
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
    SELECT s.pedido, s.intento, s.lineas, NULL::timestamptz AS iniciada_en, h.estado AS antes, h.reintento_desde
    FROM siguiente s JOIN hecha h USING (pedido)
    UNION ALL
    SELECT l.pedido, 0, NULL::jsonb, l.iniciada_en, h.estado, h.reintento_desde
    FROM lista l JOIN hecha h USING (pedido)""";

  /** A stage answered that the order cannot go on (no stock): the stage RECHAZADA and the chain RECHAZADO. */
  static final String RECHAZAR = """
    WITH hecha AS (
           UPDATE cadena.cadena_etapa SET estado = 'RECHAZADA', actualizada_en = now()
           WHERE pedido = $1 AND etapa = $2 AND estado IN ('EN_CURSO', 'EN_REINTENTO')
           RETURNING pedido)
    UPDATE cadena.cadenas c SET estado = 'RECHAZADO', terminada_en = now()
    FROM hecha WHERE c.pedido = hecha.pedido AND c.estado = 'EN_CURSO'
    RETURNING c.pedido""";

  /** What a repeated confirmation must make sure was sent: the stage now in flight, or the chain's end. */
  static final String SITUACION = """
    SELECT c.estado AS cadena, c.lineas, e.etapa, e.estado, e.intento
    FROM cadena.cadenas c JOIN cadena.cadena_etapa e ON e.pedido = c.pedido
    WHERE c.pedido = $1 ORDER BY e.orden""";

  /**
   * The Reacción stops an annulled order's chain: DETENIDO whether it runs, finished, or has not started yet (a chain
   * that starts later finds the row and does nothing).
   */
  static final String DETENER = """
    INSERT INTO cadena.cadenas (pedido, actor, lineas, estado, terminada_en) VALUES ($1, $2, '[]', 'DETENIDO', now())
    ON CONFLICT (pedido) DO UPDATE SET estado = 'DETENIDO', terminada_en = now()
    WHERE cadenas.estado IN ('EN_CURSO', 'LISTO')""";

  /**
   * R6–R7: the signalled attempt, if it is still stopped and its chain still runs, becomes the next one, with the
   * Reanudador's wait. A signal registered before the order was annulled retries nothing.
   */
  static final String REINTENTAR = """
    UPDATE cadena.cadena_etapa e
    SET estado = 'EN_REINTENTO', intento = e.intento + 1, plazo = now() + make_interval(secs => $4::float8 / 1000),
        reintento_desde = now(), actualizada_en = now()
    FROM cadena.cadenas c
    WHERE e.pedido = $1 AND e.etapa = $2 AND e.intento = $3 AND e.estado = 'EN_CURSO' AND c.pedido = e.pedido
      AND c.estado = 'EN_CURSO'
    RETURNING e.intento, c.lineas""";

  /**
   * R9: the retries that got no confirmation within their wait, of chains that still run: an order annulled during its
   * retry is not put before a person. The chain is read before the limit, so stopped stages never crowd out the others.
   * The page is a materialized CTE joined on the key: as {@code (pedido, etapa) IN (subquery with LIMIT)}, a plan made
   * before the table's statistics caught up with 1,200 fresh retries re-ran the subquery for each row, past the
   * statement timeout, five checks in a row (AsrEscalaTest, retry → Bandeja 53 s).
   */
  static final String ESCALAR = """
    WITH vencidas AS MATERIALIZED (
      SELECT e.pedido, e.etapa FROM cadena.cadena_etapa e
      JOIN cadena.cadenas c ON c.pedido = e.pedido AND c.estado = 'EN_CURSO'
      WHERE e.estado = 'EN_REINTENTO' AND e.plazo < now() LIMIT $1)
    UPDATE cadena.cadena_etapa e SET estado = 'ESCALADA', actualizada_en = now()
    FROM vencidas v
    WHERE e.pedido = v.pedido AND e.etapa = v.etapa AND e.estado = 'EN_REINTENTO'
    RETURNING e.pedido, e.etapa, e.intento, e.en_curso_desde, e.reintento_desde""";

  /** Escalations whose event is not acknowledged yet (the process that escalated them died before). */
  static final String ESCALADAS_SIN_PUBLICAR = """
    SELECT pedido, etapa, intento, en_curso_desde, reintento_desde FROM cadena.cadena_etapa
    WHERE estado = 'ESCALADA' AND escalada_publicada_en IS NULL AND actualizada_en < now() - interval '2 seconds'
    ORDER BY actualizada_en LIMIT $1""";

  /** A page of acknowledged escalations marked in one statement. */
  static final String ESCALADAS_PUBLICADAS = """
    UPDATE cadena.cadena_etapa e SET escalada_publicada_en = now()
    FROM unnest($1::uuid[], $2::text[]) AS p(pedido, etapa)
    WHERE e.pedido = p.pedido AND e.etapa = p.etapa AND e.escalada_publicada_en IS NULL""";

  /**
   * An order's chain and its stages, in the chain's order, for the order's reader (ccp.pedidos, through the group role
   * lector_cadena: only these columns are granted). A chain stopped before it started has no stage rows.
   */
  static final String CADENA_DE_PEDIDO = """
    SELECT c.estado AS cadena, c.iniciada_en, c.terminada_en, e.etapa, e.estado, e.intento, e.en_curso_desde,
           e.reintento_desde, e.actualizada_en
    FROM cadena.cadenas c LEFT JOIN cadena.cadena_etapa e ON e.pedido = c.pedido
    WHERE c.pedido = $1 ORDER BY e.orden""";

  /** What {@link CadenaDePedido#version} compares: how many chains started and ended, and their stages' last move. */
  static final String VERSION_DE_PEDIDOS = """
    SELECT concat_ws('/',
             (SELECT count(*) || ':' || count(terminada_en) FROM cadena.cadenas WHERE pedido = ANY($1)),
             (SELECT max(actualizada_en)::text FROM cadena.cadena_etapa WHERE pedido = ANY($1))) AS version""";

  /**
   * A page of Logística's finished orders, in arrival order, after the cursor ({@code $1, $2}: the last order's arrival
   * and id). Only the chains still LISTO: an order annulled after it finished (DETENIDO) is not to be shipped.
   */
  static final String PEDIDOS_LISTOS = """
    SELECT l.pedido, l.recibido_en, c.actor, c.lineas, c.terminada_en
    FROM cadena.pedidos_listos l JOIN cadena.cadenas c ON c.pedido = l.pedido AND c.estado = 'LISTO'
    WHERE (l.recibido_en, l.pedido) > ($1, $2)
    ORDER BY l.recibido_en, l.pedido LIMIT $3""";
}
