-- One chain per order, started from the order's committed escritura.realizada (DESIGN.md §9).
CREATE TABLE cadenas (
  pedido        uuid PRIMARY KEY,
  actor         text NOT NULL,
  lineas        jsonb NOT NULL,
  estado        text NOT NULL CHECK (estado IN ('EN_CURSO', 'LISTO', 'RECHAZADO', 'DETENIDO')),
  iniciada_en   timestamptz NOT NULL DEFAULT now(),
  terminada_en  timestamptz
);

-- RepositorioCadena, row CadenaEtapa {guarded} (ADR-002): one row per (pedido, etapa). Every transition is one
-- UPDATE ... WHERE estado = <expected>: of two writers racing on a row, the one that matches 0 rows lost.
CREATE TABLE cadena_etapa (
  pedido          uuid NOT NULL REFERENCES cadenas (pedido),
  etapa           text NOT NULL CHECK (etapa IN ('FACTURACION', 'INVENTARIO', 'DESPACHO')),
  orden           integer NOT NULL,
  estado          text NOT NULL CHECK (estado IN ('PENDIENTE', 'EN_CURSO', 'COMPLETADA', 'FALLIDA', 'EN_REINTENTO', 'ESCALADA', 'RECHAZADA')),
  intento         integer NOT NULL DEFAULT 0,
  plazo           timestamptz,
  en_curso_desde  timestamptz,
  reintento_desde timestamptz,
  escalada_publicada_en timestamptz,
  actualizada_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pedido, etapa)
);
-- The sweep (BarridoPlazos) looks for stages in flight past their deadline.
CREATE INDEX etapas_en_vuelo ON cadena_etapa (plazo) WHERE estado IN ('EN_CURSO', 'EN_REINTENTO');

-- Logística: the orders whose chain finished (pedido.listo), once each.
CREATE TABLE pedidos_listos (
  pedido       uuid PRIMARY KEY,
  recibido_en  timestamptz NOT NULL DEFAULT now()
);
