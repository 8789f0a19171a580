-- Demo actors for a laptop run and the load driver (only with demo.seed=true).
INSERT INTO actores (id, nombre, perfil)
SELECT 'vendedor-' || i, 'Vendedor demo ' || i, 'VENDEDOR' FROM generate_series(1, 1000) AS i
ON CONFLICT (id) DO NOTHING;

INSERT INTO actores (id, nombre, perfil) VALUES
  ('consulta-1', 'Consulta demo 1', 'CONSULTA'),
  ('seguridad-1', 'Área de seguridad demo', 'SEGURIDAD'),
  ('operador-1', 'Responsable de pedidos escalados demo', 'OPERADOR'),
  ('bodega-1', 'Bodega demo', 'BODEGA')
ON CONFLICT (id) DO NOTHING;
