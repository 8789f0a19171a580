-- Fail closed: a reaction's step that a peer refuses or does not answer is retried, never skipped. Each
-- failed try is counted here, so a restarted process backs off from where the last one was; detenida_avisada_en says
-- the security area and the Bandeja were told the reaction is stuck (once).
ALTER TABLE registro_reacciones
  ADD COLUMN intentos             integer NOT NULL DEFAULT 0,
  ADD COLUMN ultimo_error         text,
  ADD COLUMN detenida_avisada_en  timestamptz;

-- LEVANTADA: a SEGURIDAD person lifted the actor's revocation; the reaction takes no further step.
ALTER TABLE registro_reacciones DROP CONSTRAINT registro_reacciones_paso_check;
ALTER TABLE registro_reacciones ADD CONSTRAINT registro_reacciones_paso_check
  CHECK (paso IN ('ABIERTA', 'REVOCADA', 'BLOQUEADA', 'COMPENSADA', 'NOTIFICADA', 'LEVANTADA'));
DROP INDEX reacciones_en_curso;
CREATE INDEX reacciones_en_curso ON registro_reacciones (actualizada_en) WHERE paso NOT IN ('NOTIFICADA', 'LEVANTADA');

-- A revocation lasts while any reaction of its actor is unfinished ('infinity'); the last one to finish starts the
-- revocation's hours. A revocation made before this migration whose reaction is unfinished stops expiring now.
UPDATE lista_revocacion l SET vence_en = 'infinity'
WHERE EXISTS (SELECT 1 FROM registro_reacciones r WHERE r.actor = l.actor AND r.paso <> 'NOTIFICADA');

-- Levantamientos: who lifted which revocation, when and why. Written in the same statement that deletes the
-- revocation (RegistroReacciones.levantar), so there is no lift without its row.
CREATE TABLE levantamientos (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor                 text NOT NULL,
  levantado_por         text NOT NULL,
  levantado_en          timestamptz NOT NULL DEFAULT now(),
  motivo                text NOT NULL,
  revocado_en           timestamptz NOT NULL,
  motivo_revocacion     text NOT NULL,
  id_escritura          uuid NOT NULL,
  reacciones_detenidas  uuid[] NOT NULL
);
CREATE INDEX levantamientos_por_actor ON levantamientos (actor, levantado_en DESC);
