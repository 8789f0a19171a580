-- What the compensation (B11) did, as the compensating service answered it: the annulled order, or the reverted stock
-- adjustment with the units that could not be taken back. Recorded before the reaction moves to COMPENSADA, so the
-- alert (B14) says it even when another process resumes the reaction.
ALTER TABLE registro_reacciones ADD COLUMN compensacion jsonb;
COMMENT ON COLUMN registro_reacciones.pedido IS 'the id of what the improper write made: the order (pedidos) or the stock adjustment (inventario)';
