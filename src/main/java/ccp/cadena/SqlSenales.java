package ccp.cadena;

/**
 * The statements of RegistroSenales ({@code cadena.registro_senales}) for the Monitor de la cadena (R1–R5): they read
 * the chain and write only the signals. Only {@link RepositorioSenales} runs them.
 */
final class SqlSenales {

  private SqlSenales() {}

  /**
   * R1–R3: a signal in RegistroSenales for each stage past its deadline (read-only on the chain) whose chain still runs:
   * a stopped (annulled) order's stage that never answers is not retried. The chain is read in the same statement,
   * before the page's limit ({@code $1}), so stopped stages never crowd out the running ones; a stage already signalled
   * is left out before the limit too, so the next page holds only new ones and the sweep pages until one is short.
   */
  static final String SENALAR_VENCIDAS = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT e.pedido, e.etapa, e.intento, 'PLAZO_VENCIDO' FROM cadena.cadena_etapa e
    JOIN cadena.cadenas c ON c.pedido = e.pedido AND c.estado = 'EN_CURSO'
    WHERE e.estado = 'EN_CURSO' AND e.plazo < now()
      AND NOT EXISTS (SELECT 1 FROM cadena.registro_senales s WHERE s.pedido = e.pedido AND s.etapa = e.etapa AND s.intento = e.intento)
    ORDER BY e.plazo LIMIT $1
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  /**
   * A stage started less than a second ago may not have reached its consumer yet: it is left to its deadline. As the
   * sweep, only stages of a chain that still runs, and paged in the same way ({@code $2}).
   */
  static final String SENALAR_SIN_RESPUESTA = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT e.pedido, e.etapa, e.intento, 'SONDEO_SIN_RESPUESTA' FROM cadena.cadena_etapa e
    JOIN cadena.cadenas c ON c.pedido = e.pedido AND c.estado = 'EN_CURSO'
    WHERE e.etapa = $1 AND e.estado = 'EN_CURSO' AND e.en_curso_desde < now() - interval '1 second'
      AND NOT EXISTS (SELECT 1 FROM cadena.registro_senales s WHERE s.pedido = e.pedido AND s.etapa = e.etapa AND s.intento = e.intento)
    LIMIT $2
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  static final String SENALES_POR_PUBLICAR = """
    SELECT s.pedido, s.etapa, s.intento, s.motivo, c.actor, e.en_curso_desde
    FROM cadena.registro_senales s
    JOIN cadena.cadenas c ON c.pedido = s.pedido
    JOIN cadena.cadena_etapa e ON e.pedido = s.pedido AND e.etapa = s.etapa
    WHERE s.publicada_en IS NULL
    ORDER BY s.senalada_en LIMIT $1""";

  /** A page of published signals marked in one statement; answers those this statement marked (not another monitor). */
  static final String SENALES_PUBLICADAS = """
    UPDATE cadena.registro_senales s SET publicada_en = now()
    FROM unnest($1::uuid[], $2::text[], $3::int[]) AS p(pedido, etapa, intento)
    WHERE s.pedido = p.pedido AND s.etapa = p.etapa AND s.intento = p.intento AND s.publicada_en IS NULL
    RETURNING s.pedido, s.etapa, s.intento, s.publicada_en""";
}
