-- Shared Signals: a quota of streams per client, and SETs signed when sent.
--
-- Each client's number of streams, raised and lowered in the statement that creates or deletes one, so that parallel
-- creations by one client cannot pass its quota (ssf.streams-per-owner) together: they queue on this row.
CREATE TABLE ssf_cupos (
  dueno   text PRIMARY KEY,
  flujos  integer NOT NULL CHECK (flujos >= 0)
);
INSERT INTO ssf_cupos (dueno, flujos) SELECT creado_por, count(*) FROM ssf_flujos GROUP BY creado_por;

-- A SET waiting for its receiver keeps its claims, exactly as they will be signed, and is signed when pushed or polled:
-- a transmitter key rotated meanwhile signs it with the new key, which the JWK Set publishes. RS256 is deterministic,
-- so every retry of one SET under one key is the very same token. The SETs stored signed are kept as their payload.
ALTER TABLE ssf_entregas ADD COLUMN claims text;
UPDATE ssf_entregas SET claims = convert_from(decode(rpad(translate(split_part(set_jwt, '.', 2), '-_', '+/'),
  ((length(split_part(set_jwt, '.', 2)) + 3) / 4) * 4, '='), 'base64'), 'UTF8');
ALTER TABLE ssf_entregas ALTER COLUMN claims SET NOT NULL, DROP COLUMN set_jwt;
