-- Every role with an App door reads an actor's block and profile on each request (ccp.seguridad.ListaRevocacion):
-- those columns only, read only, through the group role lector_actores (db/bootstrap.sql).
GRANT USAGE ON SCHEMA gestor TO lector_actores;
GRANT SELECT (id, bloqueado, perfil) ON actores TO lector_actores;
