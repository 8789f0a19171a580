-- Orders written by Pedidos' HiloPeticion (B1). actor = who wrote it (the token's subject), never client input.
CREATE TABLE pedidos (
  id                uuid PRIMARY KEY,
  actor             text NOT NULL,
  tendero           text NOT NULL,
  lineas            jsonb NOT NULL,
  estado            text NOT NULL CHECK (estado IN ('REGISTRADO', 'ANULADO')),
  creado_en         timestamptz NOT NULL,
  anulado_en        timestamptz,
  motivo_anulacion  text
);
CREATE INDEX pedidos_por_actor ON pedidos (actor, creado_en DESC);

-- Transactional outbox (ADR-008): written in the order's transaction, published by RelevoOutbox after commit.
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

-- Idempotency-Key of the App's retries: the first answer, kept with a hash of the body that produced it.
CREATE TABLE idempotencia (
  actor          text NOT NULL,
  clave          text NOT NULL,
  huella_cuerpo  text NOT NULL,
  estado_http    integer NOT NULL,
  respuesta      jsonb NOT NULL,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (actor, clave)
);
