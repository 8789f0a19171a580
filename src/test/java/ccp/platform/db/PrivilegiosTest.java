package ccp.platform.db;

import ccp.platform.config.ConfigException;
import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each process group's login role can do what its code does and nothing more: attacks, as a role's own login, on the
 * schemas of the others (db/bootstrap.sql and the owners' grant migrations).
 */
@DisplayName("PostgreSQL least privilege: each role's login, against the other roles' schemas")
class PrivilegiosTest {

  private static final String DENIED = "permission denied";

  private static Settings settings;

  /** The shared server, every schema migrated by its owner. */
  @BeforeAll
  static void migrated() {
    settings = SharedInfra.settings();
  }

  @Test
  @DisplayName("pedidos reads the Lista de revocación for its App door, but cannot update it, insert into it or delete from it, nor touch its lifts")
  void pedidosCannotWriteTheRevocationList() throws SQLException {
    try (Connection pedidos = Db.as(settings, "pedidos"); Statement s = pedidos.createStatement()) {
      s.executeQuery("SELECT actor, vence_en FROM seguridad.lista_revocacion LIMIT 1").close();
      assertDenied(s, "UPDATE seguridad.lista_revocacion SET vence_en = now() - interval '1 second'");
      assertDenied(s, "INSERT INTO seguridad.lista_revocacion (actor, revocado_en, vence_en, motivo, id_escritura) "
        + "VALUES ('vendedor-x', now(), now(), 'ataque', gen_random_uuid())");
      assertDenied(s, "DELETE FROM seguridad.lista_revocacion");
      // Nor forge or read the record of who lifted a revocation.
      assertDenied(s, "SELECT * FROM seguridad.levantamientos LIMIT 1");
      assertDenied(s, "INSERT INTO seguridad.levantamientos (actor, levantado_por, motivo, revocado_en, motivo_revocacion, "
        + "id_escritura, reacciones_detenidas) VALUES ('vendedor-x', 'seguridad-x', 'ataque', now(), 'x', gen_random_uuid(), '{}')");
    }
  }

  @Test
  @DisplayName("the gateway reads an actor's block and profile, but cannot unblock an actor, add one, or read more of it")
  void gatewayCannotWriteTheActors() throws SQLException {
    try (Connection gateway = Db.as(settings, "gateway"); Statement s = gateway.createStatement()) {
      s.executeQuery("SELECT id, bloqueado, perfil FROM gestor.actores LIMIT 1").close();
      assertDenied(s, "UPDATE gestor.actores SET bloqueado = false");
      assertDenied(s, "INSERT INTO gestor.actores (id, nombre, perfil) VALUES ('intruso', 'Intruso', 'SEGURIDAD')");
      assertDenied(s, "SELECT nombre FROM gestor.actores LIMIT 1");
      assertDenied(s, "SELECT * FROM gestor.sesiones LIMIT 1");
    }
  }

  @Test
  @DisplayName("inventario reads the Lista de revocación and the actors' profile for its App door, but cannot lift a revocation, unblock an actor, nor forge a reaction")
  void inventarioOnlyReadsItsDoorsTables() throws SQLException {
    try (Connection inventario = Db.as(settings, "inventario"); Statement s = inventario.createStatement()) {
      s.executeQuery("SELECT actor, vence_en FROM seguridad.lista_revocacion LIMIT 1").close();
      s.executeQuery("SELECT id, bloqueado, perfil FROM gestor.actores LIMIT 1").close();
      assertDenied(s, "DELETE FROM seguridad.lista_revocacion");
      assertDenied(s, "UPDATE gestor.actores SET bloqueado = false");
      assertDenied(s, "UPDATE gestor.actores SET perfil = 'BODEGA'");
      assertDenied(s, "SELECT * FROM seguridad.registro_reacciones LIMIT 1");
      assertDenied(s, "UPDATE seguridad.registro_reacciones SET paso = 'NOTIFICADA'");
      assertDenied(s, "INSERT INTO pedidos.outbox (id_evento, topic, clave, valor) VALUES (gen_random_uuid(), 'escritura.realizada', 'x', '{}')");
    }
  }

  @Test
  @DisplayName("a role creates nothing in another role's schema nor in public")
  void noRoleCreatesOutsideItsSchemas() throws SQLException {
    try (Connection pedidos = Db.as(settings, "pedidos"); Statement s = pedidos.createStatement()) {
      assertDenied(s, "CREATE TABLE seguridad.intrusa (actor text)");
      assertDenied(s, "CREATE TABLE public.intrusa (actor text)");
      assertDenied(s, "CREATE FUNCTION gestor.intrusa() RETURNS int LANGUAGE sql AS 'SELECT 1'");
      assertDenied(s, "CREATE SCHEMA intrusa");
    }
  }

  @Test
  @DisplayName("vigilancia registers signals but cannot move the chain, nor touch the Bandeja")
  void vigilanciaOnlyWritesTheSignals() throws SQLException {
    try (Connection vigilancia = Db.as(settings, "vigilancia"); Statement s = vigilancia.createStatement()) {
      s.executeQuery("SELECT pedido, etapa, intento FROM cadena.registro_senales LIMIT 1").close();
      assertDenied(s, "UPDATE cadena.cadena_etapa SET estado = 'COMPLETADA'");
      assertDenied(s, "UPDATE cadena.cadenas SET estado = 'LISTO'");
      assertDenied(s, "SELECT * FROM cadena.bandeja LIMIT 1");
      assertDenied(s, "DELETE FROM cadena.registro_senales");
    }
  }

  @Test
  @DisplayName("pedidos reads an order's chain and invoice, but cannot move the chain, touch an invoice, nor read more of them")
  void pedidosOnlyReadsTheChainAndTheInvoice() throws SQLException {
    try (Connection pedidos = Db.as(settings, "pedidos"); Statement s = pedidos.createStatement()) {
      s.executeQuery("SELECT c.estado, c.terminada_en, e.etapa, e.estado, e.intento, e.actualizada_en FROM cadena.cadenas c "
        + "LEFT JOIN cadena.cadena_etapa e ON e.pedido = c.pedido LIMIT 1").close();
      s.executeQuery("SELECT f.unidades, f.emitida_en, n.motivo FROM facturacion.facturas f "
        + "LEFT JOIN facturacion.notas_credito n ON n.pedido = f.pedido LIMIT 1").close();
      assertDenied(s, "UPDATE cadena.cadenas SET estado = 'LISTO'");
      assertDenied(s, "UPDATE cadena.cadena_etapa SET estado = 'COMPLETADA'");
      assertDenied(s, "DELETE FROM facturacion.notas_credito");
      assertDenied(s, "INSERT INTO facturacion.notas_credito (pedido, motivo) VALUES (gen_random_uuid(), 'ataque')");
      assertDenied(s, "SELECT lineas FROM cadena.cadenas LIMIT 1");
      assertDenied(s, "SELECT plazo FROM cadena.cadena_etapa LIMIT 1");
      assertDenied(s, "SELECT lineas FROM facturacion.facturas LIMIT 1");
      assertDenied(s, "SELECT * FROM cadena.bandeja LIMIT 1");
      assertDenied(s, "SELECT * FROM facturacion.etapa_procesada LIMIT 1");
    }
  }

  @Test
  @DisplayName("no login reads a table of another's schema but those granted on purpose: every role, every table")
  void noRoleReadsAnotherSchemaUnlisted() {
    List<String> reads = new ArrayList<>();
    for (String role : PgRoles.LOGIN) {
      reads.addAll(Db.strings(settings, """
        SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm') AND n.nspname IN ('gestor', 'seguridad', 'pedidos', 'cadena', 'facturacion',
              'inventario', 'despacho', 'lab') AND n.nspname <> ?
          AND (has_table_privilege(?, c.oid, 'SELECT') OR has_any_column_privilege(?, c.oid, 'SELECT'))""",
        role, role, role).stream().map(r -> role + " → " + r).toList());
    }
    List<String> expected = new ArrayList<>();
    // Every App door: the Lista de revocación and the directory's profile and block (lector_revocacion, lector_actores).
    for (String door : List.of("gateway", "gestor", "seguridad", "pedidos", "cadena", "inventario")) {
      if (!door.equals("seguridad")) expected.add(door + " → seguridad.lista_revocacion");
      if (!door.equals("gestor")) expected.add(door + " → gestor.actores");
    }
    // An order read with its chain and invoice (lector_cadena, lector_facturas).
    expected.addAll(List.of("pedidos → cadena.cadenas", "pedidos → cadena.cadena_etapa", "pedidos → facturacion.facturas",
      "pedidos → facturacion.notas_credito"));
    // The Monitor de la cadena (monitor_cadena).
    expected.addAll(List.of("vigilancia → cadena.cadenas", "vigilancia → cadena.cadena_etapa", "vigilancia → cadena.registro_senales"));
    assertThat(reads).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  @DisplayName("no login writes a table of another's schema, but vigilancia RegistroSenales: every role, every table")
  void noRoleWritesAnotherSchema() {
    List<String> writes = new ArrayList<>();
    for (String role : PgRoles.LOGIN) {
      writes.addAll(Db.strings(settings, """
        SELECT n.nspname || '.' || c.relname || ' ' || p.privilege FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) AS p (privilege)
        WHERE c.relkind IN ('r', 'p') AND n.nspname IN ('gestor', 'seguridad', 'pedidos', 'cadena', 'facturacion',
              'inventario', 'despacho', 'lab') AND n.nspname <> ?
          AND (has_table_privilege(?, c.oid, p.privilege) OR CASE WHEN p.privilege IN ('INSERT', 'UPDATE', 'REFERENCES')
                THEN has_any_column_privilege(?, c.oid, p.privilege) ELSE false END)""",
        role, role, role).stream().map(w -> role + " → " + w).toList());
    }
    assertThat(writes).containsExactlyInAnyOrder("vigilancia → cadena.registro_senales INSERT",
      "vigilancia → cadena.registro_senales UPDATE");
  }

  @Test
  @DisplayName("the embedded server asks every login for its password: a wrong one is refused, the superuser's too")
  void wrongPasswordsAreRefused() {
    String url = "jdbc:postgresql://" + settings.text("pg.host") + ":" + settings.integer("pg.port") + "/" + settings.text("pg.database");
    for (String user : List.of("postgres", "pedidos")) {
      assertThatThrownBy(() -> DriverManager.getConnection(url, user, "not-the-password").close())
        .isInstanceOf(SQLException.class).hasMessageContaining("password authentication failed for user \"" + user + "\"");
    }
  }

  @Test
  @DisplayName("a role whose password the server refuses stops its migrations with one line naming the variable to check")
  void refusedLoginNamesItsVariable() {
    PgConfig wrong = new PgConfig(settings.text("pg.host"), settings.integer("pg.port"), settings.text("pg.database"), "pedidos",
      "not-the-password", 1, 10_000, 5_000);
    assertThatThrownBy(() -> Migrations.migrate(wrong, false, List.of("pedidos")))
      .isInstanceOf(ConfigException.class)
      .hasMessageContaining("refuses the login of role 'pedidos'").hasMessageContaining("CCP_PG_PASSWORD_PEDIDOS");
  }

  @Test
  @DisplayName("an install from before these roles, everything owned by ccp, is handed to each schema's owner by bootstrap.sql, its rows kept")
  void bootstrapHandsAnOldInstallToTheOwners() throws SQLException {
    String database = "antes_" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection superuser = Db.superuser(settings); Statement s = superuser.createStatement()) {
      s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ccp') THEN CREATE ROLE ccp LOGIN; END IF; END $$");
      s.execute("CREATE DATABASE " + database + " OWNER ccp");
    }
    try {
      try (Connection old = Db.superuser(settings, database); Statement s = old.createStatement()) {
        s.execute("SET ROLE ccp");
        s.execute("CREATE SCHEMA pedidos");
        s.execute("CREATE TABLE pedidos.pedidos (id bigserial PRIMARY KEY, total integer NOT NULL)");
        s.execute("INSERT INTO pedidos.pedidos (total) VALUES (7)");
        s.execute("CREATE FUNCTION pedidos.cuantos() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM pedidos.pedidos'");
        s.execute("RESET ROLE");

        s.execute(PgRoles.bootstrapSql());

        try (ResultSet owners = s.executeQuery("""
          SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'pedidos'
          UNION ALL SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname IN ('pedidos', 'pedidos_id_seq')
          UNION ALL SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'cuantos'""")) {
          List<String> all = new ArrayList<>();
          while (owners.next()) all.add(owners.getString(1));
          assertThat(all).hasSize(4).containsOnly("pedidos");
        }
      }
      try (Connection pedidos = Db.as(settings, "pedidos", database); Statement s = pedidos.createStatement()) {
        s.execute("INSERT INTO pedidos.pedidos (total) VALUES (8)");
        try (ResultSet n = s.executeQuery("SELECT pedidos.cuantos()")) {
          n.next();
          assertThat(n.getLong(1)).isEqualTo(2);
        }
      }
    } finally {
      try (Connection superuser = Db.superuser(settings); Statement s = superuser.createStatement()) {
        s.execute("DROP DATABASE " + database + " WITH (FORCE)");
      }
    }
  }

  private static void assertDenied(Statement s, String sql) {
    assertThatThrownBy(() -> {
      if (s.execute(sql)) s.getResultSet().close();
    }).as(sql).isInstanceOf(SQLException.class).hasMessageContaining(DENIED);
  }
}
