-- Lista de revocación {guarded} (ADR-009): one row per actor with its expiry. Written only by the Reacción with
-- one upsert; read by every gateway request, without a lock.
CREATE TABLE lista_revocacion (
  actor         text PRIMARY KEY,
  revocado_en   timestamptz NOT NULL,
  vence_en      timestamptz NOT NULL,
  motivo        text NOT NULL,
  id_escritura  uuid NOT NULL
);

-- RegistroReacciones {guarded} (ADR-010): unique id_escritura, so a redelivered detection finds its reaction open.
-- paso is the last step done; each step moves it with UPDATE ... WHERE paso = <previous>.
CREATE TABLE registro_reacciones (
  id_escritura    uuid PRIMARY KEY,
  actor           text NOT NULL,
  servicio        text NOT NULL,
  pedido          text NOT NULL,
  t_det           timestamptz NOT NULL,
  paso            text NOT NULL CHECK (paso IN ('ABIERTA', 'REVOCADA', 'BLOQUEADA', 'COMPENSADA', 'NOTIFICADA')),
  abierta_en      timestamptz NOT NULL DEFAULT now(),
  revocada_en     timestamptz,
  actualizada_en  timestamptz NOT NULL DEFAULT now(),
  terminada_en    timestamptz
);
CREATE INDEX reacciones_en_curso ON registro_reacciones (actualizada_en) WHERE paso <> 'NOTIFICADA';
