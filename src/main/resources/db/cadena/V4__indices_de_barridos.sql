-- The periodic scans must not read the whole (ever growing) table: measured with pg_stat_statements at 300
-- orders/s, BarridoPlazos's and the Reanudador's were sequential scans of cadena_etapa, 39 ms and 28 ms each and
-- growing with the history, about a quarter of PostgreSQL's statement time.
-- One index serves every scan by deadline: BarridoPlazos (EN_CURSO or FALLIDA) and the Reanudador's escalation
-- (EN_REINTENTO); etapas_en_vuelo did not cover FALLIDA, and a second index would cost every transition.
DROP INDEX etapas_en_vuelo;
CREATE INDEX etapas_con_plazo ON cadena_etapa (plazo) WHERE estado IN ('EN_CURSO', 'EN_REINTENTO', 'FALLIDA');
-- Reanudador: escalations whose event is not acknowledged yet (rare rows, so a cheap index).
CREATE INDEX escaladas_sin_publicar ON cadena_etapa (actualizada_en) WHERE estado = 'ESCALADA' AND escalada_publicada_en IS NULL;
