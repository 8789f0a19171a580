-- EtapaProcesada of Facturación (ADR-005): unique (pedido, etapa), inserted by the statement that issues the invoice,
-- so a redelivered command finds it and only re-confirms.
CREATE TABLE etapa_procesada (
  pedido        uuid NOT NULL,
  etapa         text NOT NULL,
  resultado     text NOT NULL CHECK (resultado IN ('COMPLETADA', 'RECHAZADA', 'COMPENSADA')),
  motivo        text,
  procesada_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pedido, etapa)
);
CREATE TABLE facturas (
  pedido      uuid PRIMARY KEY,
  lineas      jsonb NOT NULL,
  unidades    integer NOT NULL,
  emitida_en  timestamptz NOT NULL DEFAULT now()
);
-- The compensation of an invoice whose order was rejected later in the chain.
CREATE TABLE notas_credito (
  pedido      uuid PRIMARY KEY REFERENCES facturas (pedido),
  motivo      text NOT NULL,
  emitida_en  timestamptz NOT NULL DEFAULT now()
);
