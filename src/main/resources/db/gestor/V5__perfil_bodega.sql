-- BODEGA: the warehouse staff, who adjust the stock Inventario holds (POST /v1/inventario/ajustes). Only BODEGA writes
-- inventory and only VENDEDOR writes orders (Actores.Permisos); anyone else's write is detected and undone (flow B).
ALTER TABLE actores DROP CONSTRAINT actores_perfil_check;
ALTER TABLE actores ADD CONSTRAINT actores_perfil_check
  CHECK (perfil IN ('VENDEDOR', 'CONSULTA', 'SEGURIDAD', 'OPERADOR', 'BODEGA'));
