-- RegistroSenales {guarded} (ADR-004, NR-004a): unique (pedido, etapa, intento), so a repeated sweep — or a second
-- monitor — never signals the same stopped attempt twice. publicada_en is set once PublicadorReintentos' event is
-- acknowledged; a sweep re-publishes what is still unset.
CREATE TABLE registro_senales (
  pedido        uuid NOT NULL,
  etapa         text NOT NULL,
  intento       integer NOT NULL,
  motivo        text NOT NULL,
  senalada_en   timestamptz NOT NULL DEFAULT now(),
  publicada_en  timestamptz,
  PRIMARY KEY (pedido, etapa, intento)
);
CREATE INDEX senales_sin_publicar ON registro_senales (senalada_en) WHERE publicada_en IS NULL;
