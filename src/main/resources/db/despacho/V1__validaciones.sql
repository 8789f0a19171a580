-- EtapaProcesada of Validación de despacho (ADR-005), inserted by the statement that records the check.
CREATE TABLE etapa_procesada (
  pedido        uuid NOT NULL,
  etapa         text NOT NULL,
  resultado     text NOT NULL CHECK (resultado IN ('COMPLETADA', 'RECHAZADA', 'COMPENSADA')),
  motivo        text,
  procesada_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pedido, etapa)
);
CREATE TABLE validaciones (
  pedido       uuid PRIMARY KEY,
  lineas       jsonb NOT NULL,
  unidades     integer NOT NULL,
  validada_en  timestamptz NOT NULL DEFAULT now()
);
