-- Actors of the App and their current profile (the "permisos vigentes" the Detector reads in flow B).
CREATE TABLE actores (
  id         text PRIMARY KEY,
  nombre     text NOT NULL,
  perfil     text NOT NULL CHECK (perfil IN ('VENDEDOR', 'CONSULTA', 'SEGURIDAD')),
  bloqueado  boolean NOT NULL DEFAULT false,
  creado_en  timestamptz NOT NULL DEFAULT now()
);
