-- The Monitor de la cadena (role vigilancia, through the group role monitor_cadena of db/bootstrap.sql) reads the
-- chain and writes only RegistroSenales (ccp.cadena.SqlSenales): it registers signals and marks them published.
GRANT USAGE ON SCHEMA cadena TO monitor_cadena;
GRANT SELECT (pedido, actor, estado) ON cadenas TO monitor_cadena;
GRANT SELECT (pedido, etapa, intento, estado, plazo, en_curso_desde) ON cadena_etapa TO monitor_cadena;
GRANT SELECT, INSERT ON registro_senales TO monitor_cadena;
GRANT UPDATE (publicada_en) ON registro_senales TO monitor_cadena;
