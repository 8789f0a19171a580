package ccp.cadena;

/**
 * The statements of the Bandeja de pedidos escalados ({@code cadena.bandeja}, R10–R11 and the dead letters), each change
 * one conditional statement, and of its retry of an escalated stage. {@link RepositorioBandeja} runs them, but the retry,
 * which re-arms the stage: {@link RepositorioCadena}, the stages' owner, runs that one.
 */
final class SqlBandeja {

  private SqlBandeja() {}

  /**
   * The Bandeja's item for an escalation. It reads the stage's state in the same statement, locked ({@code FOR SHARE}):
   * an escalation whose stage was confirmed meanwhile (late) enters closed, with that reason. The lock orders it with
   * the confirmation's update of the row: a confirmation committing first is seen (its latest state, not this
   * statement's snapshot); one that comes after waits for this item to commit, and its close then finds it.
   */
  static final String ITEM_ESCALADA = """
    WITH etapa AS (
           SELECT estado FROM cadena.cadena_etapa WHERE pedido = $2 AND etapa = $3 FOR SHARE)
    INSERT INTO cadena.bandeja (id, tipo, pedido, etapa, detalle, estado, cerrada_en, cierre)
    SELECT $1, 'ESCALADA', $2, $3, $4, CASE WHEN completada THEN 'CERRADO' ELSE 'ABIERTO' END,
           CASE WHEN completada THEN now() END, CASE WHEN completada THEN 'confirmación tardía' END
    FROM (SELECT EXISTS (SELECT 1 FROM etapa WHERE estado = 'COMPLETADA') AS completada) s
    ON CONFLICT (id) DO NOTHING
    RETURNING abierta_en""";

  static final String FALLIDO = """
    INSERT INTO cadena.bandeja (id, tipo, detalle, estado) VALUES ($1, 'FALLIDO', $2, 'ABIERTO') ON CONFLICT (id) DO NOTHING""";

  /**
   * The stage confirmed: its escalations' items close by themselves — an open one with {@code $3} as the reason (a late
   * confirmation, or the operator's retry confirmed before the item was marked), and one the operator retried, which
   * waited as REINTENTADO for the stage to come back, with {@code $4} after who retried it.
   */
  static final String CERRAR_CONFIRMADA = """
    UPDATE cadena.bandeja SET estado = 'CERRADO', cerrada_en = now(),
           cierre = CASE WHEN estado = 'REINTENTADO' THEN cierre || '; ' || $4 ELSE $3 END
    WHERE pedido = $1 AND etapa = $2 AND tipo = 'ESCALADA' AND estado IN ('ABIERTO', 'REINTENTADO')""";

  /** The operator's close: of an open item, or of a retried one whose stage has not come back (the order was annulled). */
  static final String CERRAR = """
    UPDATE cadena.bandeja SET estado = 'CERRADO', cerrada_en = now(),
           cierre = CASE WHEN estado = 'REINTENTADO' THEN cierre || '; ' || $2 ELSE $2 END
    WHERE id = $1 AND estado IN ('ABIERTO', 'REINTENTADO')
    RETURNING id""";

  static final String MARCAR_REINTENTO = """
    UPDATE cadena.bandeja SET estado = 'REINTENTADO', cerrada_en = now(), cierre = $2
    WHERE id = $1 AND estado = 'ABIERTO' AND tipo = 'ESCALADA'
    RETURNING pedido, etapa""";

  static final String LISTAR = """
    SELECT id, tipo, pedido, etapa, detalle, estado, abierta_en, cerrada_en, cierre FROM cadena.bandeja
    WHERE estado = $1 ORDER BY abierta_en DESC LIMIT $2""";

  static final String VERSION = """
    SELECT count(*) FILTER (WHERE estado = 'ABIERTO') || ':' || coalesce(max(abierta_en)::text, '') || ':'
           || coalesce(max(cerrada_en)::text, '') AS version
    FROM cadena.bandeja""";

  static final String ABIERTOS = "SELECT count(*) AS abiertos FROM cadena.bandeja WHERE estado = 'ABIERTO'";

  /**
   * An order's chain as the person responsible reads it from an item: each stage's state and attempt with its deadline,
   * the escalation's publication and the Monitor's signals (RegistroSenales), which the order's own reader is not granted.
   */
  static final String CADENA_DEL_ITEM = """
    SELECT json_build_object('estado', c.estado, 'iniciada_en', c.iniciada_en, 'terminada_en', c.terminada_en,
             'etapas', coalesce((SELECT json_agg(json_build_object(
                                   'etapa', e.etapa, 'estado', e.estado, 'intento', e.intento, 'plazo', e.plazo,
                                   'en_curso_desde', e.en_curso_desde, 'reintento_desde', e.reintento_desde,
                                   'escalada_publicada_en', e.escalada_publicada_en, 'actualizada_en', e.actualizada_en,
                                   'senales', coalesce((SELECT json_agg(json_build_object(
                                                          'intento', s.intento, 'motivo', s.motivo,
                                                          'senalada_en', s.senalada_en, 'publicada_en', s.publicada_en)
                                                          ORDER BY s.intento)
                                                        FROM cadena.registro_senales s
                                                        WHERE s.pedido = e.pedido AND s.etapa = e.etapa), '[]'))
                                   ORDER BY e.orden)
                                 FROM cadena.cadena_etapa e WHERE e.pedido = c.pedido), '[]')) AS cadena
    FROM cadena.bandeja b JOIN cadena.cadenas c ON c.pedido = b.pedido
    WHERE b.id = $1""";

  static final String LEER = """
    SELECT id, tipo, pedido, etapa, detalle, estado, abierta_en, cerrada_en, cierre FROM cadena.bandeja WHERE id = $1""";

  /**
   * The Bandeja's retry: an escalated stage goes back to EN_REINTENTO with a new attempt, its escalation re-armed —
   * only while its chain runs (an annulled order's stage is not commanded again, nor escalated a second time).
   */
  static final String REINTENTAR_ESCALADA = """
    UPDATE cadena.cadena_etapa e
    SET estado = 'EN_REINTENTO', intento = e.intento + 1, plazo = now() + make_interval(secs => $3::float8 / 1000),
        reintento_desde = now(), escalada_publicada_en = NULL, actualizada_en = now()
    FROM cadena.cadenas c
    WHERE e.pedido = $1 AND e.etapa = $2 AND e.estado = 'ESCALADA' AND c.pedido = e.pedido AND c.estado = 'EN_CURSO'
    RETURNING e.intento, c.lineas""";
}
