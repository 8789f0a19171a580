package ccp.cadena;

/**
 * The statements of RegistroSenales ({@code cadena.registro_senales}) for the Monitor de la cadena (R1–R5): they read
 * the chain and write only the signals. Only {@link RepositorioCadena} runs them.
 */
final class SqlSenales {

  private SqlSenales() {}

  /**
   * R1–R3: a signal in RegistroSenales for each stage past its deadline (read-only on the chain) whose chain still runs:
   * a stopped (annulled) order's stage that never answers is not retried. The chain is read in the same statement,
   * before the limit, so stopped stages never crowd out the running ones.
   */
  static final String SENALAR_VENCIDAS = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT e.pedido, e.etapa, e.intento, 'PLAZO_VENCIDO' FROM cadena.cadena_etapa e
    JOIN cadena.cadenas c ON c.pedido = e.pedido AND c.estado = 'EN_CURSO'
    WHERE e.estado = 'EN_CURSO' AND e.plazo < now()
    ORDER BY e.plazo LIMIT 500
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  /**
   * A stage started less than a second ago may not have reached its consumer yet: it is left to its deadline. As the
   * sweep, only stages of a chain that still runs.
   */
  static final String SENALAR_SIN_RESPUESTA = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT e.pedido, e.etapa, e.intento, 'SONDEO_SIN_RESPUESTA' FROM cadena.cadena_etapa e
    JOIN cadena.cadenas c ON c.pedido = e.pedido AND c.estado = 'EN_CURSO'
    WHERE e.etapa = $1 AND e.estado = 'EN_CURSO' AND e.en_curso_desde < now() - interval '1 second'
    LIMIT 500
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";

  static final String SENALES_POR_PUBLICAR = """
    SELECT s.pedido, s.etapa, s.intento, s.motivo, c.actor, e.en_curso_desde
    FROM cadena.registro_senales s
    JOIN cadena.cadenas c ON c.pedido = s.pedido
    JOIN cadena.cadena_etapa e ON e.pedido = s.pedido AND e.etapa = s.etapa
    WHERE s.publicada_en IS NULL
    ORDER BY s.senalada_en LIMIT 500""";

  static final String SENAL_PUBLICADA = """
    UPDATE cadena.registro_senales SET publicada_en = now()
    WHERE pedido = $1 AND etapa = $2 AND intento = $3 AND publicada_en IS NULL""";
}
