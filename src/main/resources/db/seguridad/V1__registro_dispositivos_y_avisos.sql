-- RegistroDispositivos {guarded}: one current fingerprint per vendedor (ADR-007). Written by ControladorRegistro,
-- read by ConsumidorSesiones; the primary key makes "first use registers" a single atomic statement.
CREATE TABLE registro_dispositivos (
  vendedor       text PRIMARY KEY,
  huella         text NOT NULL,
  origen         text NOT NULL CHECK (origen IN ('PRIMER_USO', 'CAMBIO')),
  registrado_en  timestamptz NOT NULL DEFAULT now()
);

-- Avisos entregados (Notificador): one row per id_alerta, so a repeated alert is delivered once.
-- entregado_en is set when the security area was notified (webhook acknowledged, or stored when none is set).
CREATE TABLE avisos (
  id_alerta     uuid PRIMARY KEY,
  tipo          text NOT NULL,
  actor         text NOT NULL,
  detalle       jsonb NOT NULL,
  t0            timestamptz,
  recibido_en   timestamptz NOT NULL DEFAULT now(),
  entregado_en  timestamptz,
  intentos      integer NOT NULL DEFAULT 0,
  ultimo_error  text
);
CREATE INDEX avisos_por_recepcion ON avisos (recibido_en DESC);
CREATE INDEX avisos_por_actor ON avisos (actor, recibido_en DESC);
