-- The critical-section lab's stock (ccp.lab). Unlike inventario.stock it has no CHECK (disponible >= 0): the lab must
-- be able to show what the wrong strategies do. Each run uses its own product ids and deletes them afterwards.
CREATE TABLE stock (
  producto    text PRIMARY KEY,
  disponible  integer NOT NULL,
  version     integer NOT NULL DEFAULT 0
);
