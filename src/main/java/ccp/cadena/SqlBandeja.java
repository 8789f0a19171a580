package ccp.cadena;

/**
 * The statements of the Bandeja de pedidos escalados ({@code cadena.bandeja}, R10–R11 and the dead letters), each change
 * one conditional statement, and of its retry of an escalated stage. Only {@link RepositorioCadena} runs them.
 */
final class SqlBandeja {

  private SqlBandeja() {}

  /**
   * The Bandeja's item for an escalation. It reads the stage's state in the same statement: an escalation whose stage
   * was confirmed meanwhile (late) enters closed, with that reason.
   */
  static final String ITEM_ESCALADA = """
    INSERT INTO cadena.bandeja (id, tipo, pedido, etapa, detalle, estado, cerrada_en, cierre)
    SELECT $1, 'ESCALADA', $2, $3, $4, CASE WHEN completada THEN 'CERRADO' ELSE 'ABIERTO' END,
           CASE WHEN completada THEN now() END, CASE WHEN completada THEN 'confirmación tardía' END
    FROM (SELECT EXISTS (SELECT 1 FROM cadena.cadena_etapa WHERE pedido = $2 AND etapa = $3 AND estado = 'COMPLETADA') AS completada) s
    ON CONFLICT (id) DO NOTHING""";

  static final String FALLIDO = """
    INSERT INTO cadena.bandeja (id, tipo, detalle, estado) VALUES ($1, 'FALLIDO', $2, 'ABIERTO') ON CONFLICT (id) DO NOTHING""";

  static final String CERRAR_TARDIA = """
    UPDATE cadena.bandeja SET estado = 'CERRADO', cerrada_en = now(), cierre = 'confirmación tardía'
    WHERE pedido = $1 AND etapa = $2 AND tipo = 'ESCALADA' AND estado = 'ABIERTO'""";

  static final String CERRAR = """
    UPDATE cadena.bandeja SET estado = 'CERRADO', cerrada_en = now(), cierre = $2 WHERE id = $1 AND estado = 'ABIERTO'
    RETURNING id""";

  static final String MARCAR_REINTENTO = """
    UPDATE cadena.bandeja SET estado = 'REINTENTADO', cerrada_en = now(), cierre = $2
    WHERE id = $1 AND estado = 'ABIERTO' AND tipo = 'ESCALADA'
    RETURNING pedido, etapa""";

  static final String LISTAR = """
    SELECT id, tipo, pedido, etapa, detalle, estado, abierta_en, cerrada_en, cierre FROM cadena.bandeja
    WHERE estado = $1 ORDER BY abierta_en DESC LIMIT $2""";

  static final String HUELLA = """
    SELECT count(*) FILTER (WHERE estado = 'ABIERTO') || ':' || coalesce(max(abierta_en)::text, '') || ':'
           || coalesce(max(cerrada_en)::text, '') AS huella
    FROM cadena.bandeja""";

  static final String ABIERTOS = "SELECT count(*) AS abiertos FROM cadena.bandeja WHERE estado = 'ABIERTO'";

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
