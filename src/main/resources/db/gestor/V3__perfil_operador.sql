-- OPERADOR: the person responsible for escalated orders, who works the Bandeja.
ALTER TABLE actores DROP CONSTRAINT actores_perfil_check;
ALTER TABLE actores ADD CONSTRAINT actores_perfil_check CHECK (perfil IN ('VENDEDOR', 'CONSULTA', 'SEGURIDAD', 'OPERADOR'));
