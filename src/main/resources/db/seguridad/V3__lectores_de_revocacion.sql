-- Every role with an App door reads the Lista de revocación on each request (ccp.seguridad.ListaRevocacion): read
-- only, through the group role lector_revocacion (db/bootstrap.sql). Only this schema's owner writes it.
GRANT USAGE ON SCHEMA seguridad TO lector_revocacion;
GRANT SELECT (actor, vence_en) ON lista_revocacion TO lector_revocacion;
