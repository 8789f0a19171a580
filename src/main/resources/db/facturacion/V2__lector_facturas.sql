-- Pedidos (through the group role lector_facturas of db/bootstrap.sql) shows Facturación's effect with the order's
-- chain: the invoice and its credit note (ccp.etapas.Comprobantes). Read only, and not the invoice's lines.
GRANT USAGE ON SCHEMA facturacion TO lector_facturas;
GRANT SELECT (pedido, unidades, emitida_en) ON facturas TO lector_facturas;
GRANT SELECT (pedido, motivo, emitida_en) ON notas_credito TO lector_facturas;
