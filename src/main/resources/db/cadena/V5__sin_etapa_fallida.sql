-- FALLIDA was allowed but never written: no stage reports a technical failure (ccp.cadena.EstadoEtapa says why), and
-- the sweep no longer reads it. The column now accepts only the states the code writes. NOT VALID because no row can
-- hold FALLIDA (no statement ever wrote it): the table is not scanned under the ALTER's lock, and every write from
-- now on is checked. The predicate of etapas_con_plazo (V4) still names FALLIDA; no row matches it, and rebuilding the
-- index would block the chain's writes for nothing.
ALTER TABLE cadena_etapa
  DROP CONSTRAINT cadena_etapa_estado_check,
  ADD CONSTRAINT cadena_etapa_estado_check
    CHECK (estado IN ('PENDIENTE', 'EN_CURSO', 'COMPLETADA', 'EN_REINTENTO', 'ESCALADA', 'RECHAZADA')) NOT VALID;
