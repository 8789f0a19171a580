-- The database's roles, schemas and group roles (docs/operations.md, "PostgreSQL"). Run it as a superuser, connected
-- to the system's database, before the first start and after every upgrade: it is idempotent. The embedded PostgreSQL
-- (laptop, tests) runs this same file at every start. Passwords are set apart (ALTER ROLE ... PASSWORD, or CloudNativePG).

-- One login role per process group (ccp.app.Role) and the lab's; NOLOGIN group roles for the reads across schemas,
-- whose privileges the owning schema's migration grants.
DO $$
DECLARE
  nombre text;
BEGIN
  FOREACH nombre IN ARRAY ARRAY['gateway', 'gestor', 'seguridad', 'pedidos', 'cadena', 'facturacion', 'inventario',
                                'despacho', 'vigilancia', 'lab'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = nombre) THEN
      EXECUTE format('CREATE ROLE %I LOGIN', nombre);
    END IF;
  END LOOP;
  FOREACH nombre IN ARRAY ARRAY['lector_revocacion', 'lector_actores', 'monitor_cadena', 'lector_cadena', 'lector_facturas'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = nombre) THEN
      EXECUTE format('CREATE ROLE %I NOLOGIN', nombre);
    END IF;
  END LOOP;
END $$;

-- Every role with an App door reads the Lista de revocación and the Gestor's actors on each request (ListaRevocacion).
GRANT lector_revocacion, lector_actores TO gateway, gestor, seguridad, pedidos, cadena, inventario;
-- The Monitor de la cadena reads the chain and writes only RegistroSenales (ccp.cadena.RegistroSenales).
GRANT monitor_cadena TO vigilancia;
-- Pedidos reads an order with the state of its chain and Facturación's invoice or credit note (ccp.pedidos.ApiPedidos).
GRANT lector_cadena, lector_facturas TO pedidos;

-- PostgreSQL 14 still lets every role create objects in public; no role of the system needs it.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- Each schema belongs to its process group's role, whose migrations (Flyway) run as that owner. An install made
-- before these roles existed has every object owned by one role: each moves to its schema's owner (ALTER ... OWNER,
-- never REASSIGN OWNED, which would give everything of that role to one owner).
DO $$
DECLARE
  s record;
  o record;
BEGIN
  FOR s IN SELECT * FROM (VALUES ('gestor'), ('seguridad'), ('pedidos'), ('cadena'), ('facturacion'), ('inventario'),
                                 ('despacho'), ('lab')) AS t (esquema) LOOP
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', s.esquema, s.esquema);
    EXECUTE format('ALTER SCHEMA %I OWNER TO %I', s.esquema, s.esquema);
    FOR o IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = s.esquema AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
               AND pg_get_userbyid(c.relowner) <> s.esquema
               -- a column's sequence follows its table
               AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass
                                 AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')) LOOP
      EXECUTE format('ALTER %s %I.%I OWNER TO %I',
        CASE o.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
        s.esquema, o.relname, s.esquema);
    END LOOP;
    FOR o IN SELECT p.oid::regprocedure AS firma FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = s.esquema AND pg_get_userbyid(p.proowner) <> s.esquema LOOP
      EXECUTE format('ALTER ROUTINE %s OWNER TO %I', o.firma, s.esquema);
    END LOOP;
  END LOOP;
END $$;
