-- Each step of a reaction at its own time, for the security area's timeline (GET /v1/alertas, GET /v1/revocaciones):
-- the improper write's own time (flow B's t0, as escritura.realizada carried it), and when the block (B10) and the
-- compensation (B11) were done, beside the revoke's revocada_en and the end's terminada_en. Null on the reactions
-- recorded before.
ALTER TABLE registro_reacciones
  ADD COLUMN t_escritura   timestamptz,
  ADD COLUMN bloqueada_en  timestamptz,
  ADD COLUMN compensada_en timestamptz;
