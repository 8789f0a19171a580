-- Combining (the critical-section lab's winner for a hot product): the reservations that arrive while one
-- statement is in flight are applied by the next one, together. One call is one atomic statement: every product of
-- the batch is locked once, in name order (two batches never deadlock on stock), the orders are decided in arrival
-- order while stock lasts, each all lines or none, and each product's row is written once for the whole batch.
-- EtapaProcesada is written for each order before its units are taken: an order another process already decided
-- keeps that first result and takes nothing.
CREATE FUNCTION reservar(pedidos jsonb)
RETURNS TABLE (r_pedido uuid, r_resultado text, r_motivo text)
LANGUAGE plpgsql AS $fn$
DECLARE
  productos   text[];
  disponibles integer[];
  orden       jsonb;
  linea       record;
  k           integer;
  falta       text;
  reservados  uuid[] := '{}';
  de_producto text[] := '{}';
  cantidades  integer[] := '{}';
BEGIN
  SELECT coalesce(array_agg(s.producto ORDER BY s.producto), '{}'), coalesce(array_agg(s.disponible ORDER BY s.producto), '{}')
    INTO productos, disponibles
    FROM (SELECT st.producto, st.disponible FROM inventario.stock st
          WHERE st.producto IN (SELECT l.producto FROM jsonb_array_elements(pedidos) AS o (valor),
                                     jsonb_to_recordset(o.valor -> 'lineas') AS l (producto text, cantidad integer))
          ORDER BY st.producto FOR UPDATE) AS s;

  FOR orden IN SELECT o.valor FROM jsonb_array_elements(pedidos) WITH ORDINALITY AS o (valor, n) ORDER BY o.n LOOP
    r_pedido := (orden ->> 'pedido')::uuid;
    falta := NULL;
    FOR linea IN SELECT l.producto, sum(l.cantidad)::integer AS q
                 FROM jsonb_to_recordset(orden -> 'lineas') AS l (producto text, cantidad integer)
                 GROUP BY l.producto ORDER BY l.producto LOOP
      k := array_position(productos, linea.producto);
      IF k IS NULL OR disponibles[k] < linea.q THEN
        falta := linea.producto;
        EXIT;
      END IF;
    END LOOP;

    r_resultado := CASE WHEN falta IS NULL THEN 'COMPLETADA' ELSE 'RECHAZADA' END;
    r_motivo := 'sin stock de ' || falta;
    INSERT INTO inventario.etapa_procesada (pedido, etapa, resultado, motivo)
      VALUES (r_pedido, 'INVENTARIO', r_resultado, r_motivo)
      ON CONFLICT (pedido, etapa) DO NOTHING;
    IF FOUND THEN
      IF falta IS NULL THEN
        FOR linea IN SELECT l.producto, sum(l.cantidad)::integer AS q
                     FROM jsonb_to_recordset(orden -> 'lineas') AS l (producto text, cantidad integer) GROUP BY l.producto LOOP
          k := array_position(productos, linea.producto);
          disponibles[k] := disponibles[k] - linea.q;
          reservados := reservados || r_pedido;
          de_producto := de_producto || linea.producto;
          cantidades := cantidades || linea.q;
        END LOOP;
      END IF;
    ELSE
      SELECT e.resultado, e.motivo INTO r_resultado, r_motivo
        FROM inventario.etapa_procesada e WHERE e.pedido = r_pedido AND e.etapa = 'INVENTARIO';
    END IF;
    RETURN NEXT;
  END LOOP;

  UPDATE inventario.stock st SET disponible = d.disponible
    FROM unnest(productos, disponibles) AS d (producto, disponible)
    WHERE st.producto = d.producto AND st.disponible <> d.disponible;
  INSERT INTO inventario.reservas (pedido, producto, cantidad)
    SELECT * FROM unnest(reservados, de_producto, cantidades);
END
$fn$;
