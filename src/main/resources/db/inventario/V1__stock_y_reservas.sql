-- Inventario {guarded}: stock is never negative and never oversold; since V2 a reservation takes its units in the one
-- combined statement (the function reservar), and the CHECK makes any other writer fail loudly.
CREATE TABLE stock (
  producto    text PRIMARY KEY,
  disponible  integer NOT NULL CHECK (disponible >= 0)
);
-- EtapaProcesada of Inventario (ADR-005), inserted in the reservation's transaction.
CREATE TABLE etapa_procesada (
  pedido        uuid NOT NULL,
  etapa         text NOT NULL,
  resultado     text NOT NULL CHECK (resultado IN ('COMPLETADA', 'RECHAZADA', 'COMPENSADA')),
  motivo        text,
  procesada_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pedido, etapa)
);
CREATE TABLE reservas (
  pedido       uuid NOT NULL,
  producto     text NOT NULL,
  cantidad     integer NOT NULL CHECK (cantidad > 0),
  reservada_en timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pedido, producto)
);
