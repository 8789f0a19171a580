-- OpenID Shared Signals. The Notificador stores every alert first (avisos, as before) and then, before its
-- offset is committed, one signed SET per event per stream (ssf_entregas); delivery runs from these rows on its own schedule,
-- so a receiver that is down never stops alert storage. "Notified" is now "stored where the area reads it": the
-- webhook's per-alert delivery columns go, each stream's delivery state lives with its SET.
ALTER TABLE avisos DROP COLUMN intentos, DROP COLUMN ultimo_error;
UPDATE avisos SET entregado_en = recibido_en WHERE entregado_en IS NULL;
ALTER TABLE avisos ALTER COLUMN entregado_en SET NOT NULL, ALTER COLUMN entregado_en SET DEFAULT now();

-- An event stream (SSF 1.0 §8.1.1): who receives which events how. aud cannot change once created.
CREATE TABLE ssf_flujos (
  id_flujo              text PRIMARY KEY,
  aud                   text NOT NULL,
  metodo                text NOT NULL CHECK (metodo IN ('urn:ietf:rfc:8935', 'urn:ietf:rfc:8936')),
  endpoint_url          text CHECK ((metodo = 'urn:ietf:rfc:8935') = (endpoint_url IS NOT NULL)),
  authorization_header  text,
  eventos_solicitados   text[] NOT NULL,
  eventos_entregados    text[] NOT NULL,
  descripcion           text,
  estado                text NOT NULL DEFAULT 'enabled' CHECK (estado IN ('enabled', 'paused', 'disabled')),
  motivo_estado         text,
  creado_por            text NOT NULL,
  creado_en             timestamptz NOT NULL DEFAULT now(),
  ultima_verificacion   timestamptz
);

-- One SET per (stream, jti), signed once: a retry or a second poll sends the very same token. A row is claimed by one
-- sender at a time (reclamada_hasta, longer than the push timeout), so two seguridad processes never push it together.
CREATE TABLE ssf_entregas (
  id_flujo         text NOT NULL REFERENCES ssf_flujos ON DELETE CASCADE,
  jti              text NOT NULL,
  id_alerta        uuid REFERENCES avisos,
  tipo_evento      text NOT NULL,
  set_jwt          text NOT NULL,
  creada_en        timestamptz NOT NULL DEFAULT now(),
  intentos         integer NOT NULL DEFAULT 0,
  proximo_intento  timestamptz NOT NULL DEFAULT now(),
  reclamada_hasta  timestamptz,
  ultimo_error     text,
  entregada_en     timestamptz,
  rechazada_en     timestamptz,
  PRIMARY KEY (id_flujo, jti)
);
CREATE INDEX ssf_entregas_pendientes ON ssf_entregas (proximo_intento) WHERE entregada_en IS NULL AND rechazada_en IS NULL;
CREATE INDEX ssf_entregas_por_alerta ON ssf_entregas (id_alerta);

-- The receiver's memory of the SETs it acted on: (iss, jti) once. alerta_publicada_en closes it, so a transmitter
-- retrying a SET whose alert could not be published gets it published, and any later replay is refused.
CREATE TABLE ssf_recibidos (
  iss                  text NOT NULL,
  jti                  text NOT NULL,
  tipo_evento          text NOT NULL,
  actor                text NOT NULL,
  recibido_en          timestamptz NOT NULL DEFAULT now(),
  alerta_publicada_en  timestamptz,
  PRIMARY KEY (iss, jti)
);

-- A revocation an identity provider asked for has no improper write behind it.
ALTER TABLE lista_revocacion ALTER COLUMN id_escritura DROP NOT NULL;
ALTER TABLE levantamientos ALTER COLUMN id_escritura DROP NOT NULL;
