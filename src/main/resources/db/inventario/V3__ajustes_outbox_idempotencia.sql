-- Stock adjustments written through the App (flow B's write on Inventario, B1): units a warehouse adds (cantidad > 0)
-- or removes (< 0), and the stock they left (disponible). actor = who wrote it (the token's subject), never client input.
-- The Reacción's revert (B11) is a row of its own pointing at the adjustment it undoes (revierte): unique, so an
-- adjustment is reverted once; cantidad is what the revert applied, and no_revertidas the units it could not take back
-- (already reserved). Stock is changed only in the adjustment's or the revert's own statement.
CREATE TABLE ajustes (
  id             uuid PRIMARY KEY,
  actor          text NOT NULL,
  producto       text NOT NULL,
  cantidad       integer NOT NULL,
  motivo         text,
  disponible     integer NOT NULL CHECK (disponible >= 0),
  creado_en      timestamptz NOT NULL,
  revierte       uuid UNIQUE REFERENCES ajustes (id),
  no_revertidas  integer CHECK (no_revertidas >= 0),
  CHECK ((revierte IS NULL) = (no_revertidas IS NULL)),
  CHECK (cantidad <> 0 OR revierte IS NOT NULL)
);
CREATE INDEX ajustes_por_producto ON ajustes (producto, creado_en DESC);

-- Transactional outbox (ADR-008), as Pedidos': written in the adjustment's statement, published by Inventario's
-- RelevoOutbox after commit (B2).
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  id_evento     uuid NOT NULL UNIQUE,
  topic         text NOT NULL,
  clave         text NOT NULL,
  valor         text NOT NULL,
  creado_en     timestamptz NOT NULL DEFAULT now(),
  reclamado_en  timestamptz,
  enviado_en    timestamptz
);
CREATE INDEX outbox_pendientes ON outbox (id) WHERE enviado_en IS NULL;

-- Idempotency-Key of the App's retried adjustments: the first answer, kept with a hash of the body that produced it.
CREATE TABLE idempotencia (
  actor          text NOT NULL,
  clave          text NOT NULL,
  huella_cuerpo  text NOT NULL,
  estado_http    integer NOT NULL,
  respuesta      jsonb NOT NULL,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (actor, clave)
);
