-- Bandeja de pedidos escalados: one item per escalation (its id derives from pedido, etapa and attempt) and per
-- dead letter of cola.fallidos; a person closes or retries it. A confirmation that arrives after the escalation
-- closes the item itself (the view's open gap, closed here).
CREATE TABLE bandeja (
  id           uuid PRIMARY KEY,
  tipo         text NOT NULL CHECK (tipo IN ('ESCALADA', 'FALLIDO')),
  pedido       uuid,
  etapa        text,
  detalle      jsonb NOT NULL,
  estado       text NOT NULL CHECK (estado IN ('ABIERTO', 'CERRADO', 'REINTENTADO')),
  abierta_en   timestamptz NOT NULL DEFAULT now(),
  cerrada_en   timestamptz,
  cierre       text
);
CREATE INDEX bandeja_abierta ON bandeja (abierta_en DESC) WHERE estado = 'ABIERTO';
CREATE INDEX bandeja_por_etapa ON bandeja (pedido, etapa);
