-- The security area's console lists each stopped actor with its reactions, and watches them change
-- (ccp.seguridad.Revocaciones, GET /v1/revocaciones and /v1/alertas/flujo): by actor, not a scan of every reaction.
CREATE INDEX reacciones_por_actor ON registro_reacciones (actor, t_det);
