-- Sessions opened through the Gestor; blocking an actor ends every open one (flow B, "bloquea en el Gestor").
-- No foreign key to actores: the insert selects its actor row, and a key check would lock that row on every session.
CREATE TABLE sesiones (
  id            uuid PRIMARY KEY,
  actor         text NOT NULL,
  huella        text NOT NULL,
  abierta_en    timestamptz NOT NULL DEFAULT now(),
  terminada_en  timestamptz,
  motivo_fin    text
);
CREATE INDEX sesiones_abiertas_por_actor ON sesiones (actor) WHERE terminada_en IS NULL;
