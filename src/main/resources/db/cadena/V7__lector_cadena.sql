-- Pedidos (through the group role lector_cadena of db/bootstrap.sql) reads an order's chain to answer
-- GET /v1/pedidos/{id}: the chain's and each stage's state, attempt and timestamps, through ccp.cadena.Cadena's
-- CadenaDePedido (statement in ccp.cadena.SqlCadena). Read only, and not the lines, deadlines or the Bandeja.
GRANT USAGE ON SCHEMA cadena TO lector_cadena;
GRANT SELECT (pedido, estado, iniciada_en, terminada_en) ON cadenas TO lector_cadena;
GRANT SELECT (pedido, etapa, orden, estado, intento, en_curso_desde, reintento_desde, actualizada_en) ON cadena_etapa TO lector_cadena;
-- Logística's finished orders are listed in arrival order, a page after a cursor (GET /v1/logistica/pedidos-listos).
CREATE INDEX pedidos_listos_por_llegada ON pedidos_listos (recibido_en, pedido);
