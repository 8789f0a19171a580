-- The relays' claim keeps each key's order across relays: a row is claimed only with every earlier unsent row of its
-- topic and key (ccp.platform.outbox.Outbox). This index answers that check for each candidate from the few unsent
-- rows of its key, instead of scanning every unsent row (a backlog after an outage).
CREATE INDEX outbox_pendientes_por_clave ON outbox (topic, clave, id) WHERE enviado_en IS NULL;
