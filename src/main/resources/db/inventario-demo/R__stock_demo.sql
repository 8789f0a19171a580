-- Demo stock for a laptop run and the load driver (only with demo.seed=true): P-0 … P-199, a million units each.
INSERT INTO stock (producto, disponible)
SELECT 'P-' || i, 1000000 FROM generate_series(0, 199) AS i
ON CONFLICT (producto) DO NOTHING;
