-- The warm-up's actor (ccp.gestor.WarmUp): before a Gestor's process says it is ready, it opens sessions as
-- this actor through its own session route, with tokens of a key that lives only in that process's memory until then.
-- Read-only (CONSULTA): it opens sessions and nothing else; its sessions are deleted when the warm-up ends.
INSERT INTO actores (id, nombre, perfil) VALUES ('ccp-warm-up', 'Calentamiento del Gestor', 'CONSULTA')
ON CONFLICT (id) DO NOTHING;
