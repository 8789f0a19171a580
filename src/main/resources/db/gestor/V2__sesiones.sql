-- Sessions opened through the Gestor; blocking an actor ends every open one (flow B, "bloquea en el Gestor").
CREATE TABLE sesiones (
  id            uuid PRIMARY KEY,
  actor         text NOT NULL REFERENCES actores (id),
  huella        text NOT NULL,
  abierta_en    timestamptz NOT NULL DEFAULT now(),
  terminada_en  timestamptz,
  motivo_fin    text
);
CREATE INDEX sesiones_abiertas_por_actor ON sesiones (actor) WHERE terminada_en IS NULL;
