package ccp.platform.infra;

import ccp.app.KafkaAccess;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import ccp.support.Db;
import ccp.support.SharedInfra;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("A laptop's data directory from before the database roles keeps its data and is handed to the roles")
class DatosAnterioresTest {

  @Test
  @DisplayName("everything owned by ccp under trust becomes each schema's owner's, behind passwords, the rows kept")
  void oldDataDirectoryIsUpgraded() throws Exception {
    Path dataDir = Files.createTempDirectory("ccp-datos-anteriores");
    int port = SharedInfra.freePort();
    // What the embedded server made before: initdb's trust, one login ccp owning the database, migrated as ccp.
    try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(dataDir.resolve("postgres/data"))
      .setOverrideWorkingDirectory(dataDir.resolve("postgres/run").toFile()).setCleanDataDirectory(false).setPort(port).start()) {
      try (Connection c = old.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
        s.execute("CREATE ROLE ccp LOGIN");
        s.execute("CREATE DATABASE ccp OWNER ccp");
      }
      // The migrations that existed then: gestor up to V3, pedidos V1; and a demo actor seeded as ccp (today's demo
      // script names profiles that V3 did not know: it runs again, after the new versions, at the upgrade).
      for (String schema : List.of("gestor", "pedidos")) {
        Flyway.configure().dataSource("jdbc:postgresql://127.0.0.1:" + port + "/ccp", "ccp", "").schemas(schema).createSchemas(true)
          .locations("classpath:db/" + schema).target(schema.equals("gestor") ? "3" : "1").load().migrate();
      }
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/ccp", "ccp", "");
           Statement s = c.createStatement()) {
        s.execute("INSERT INTO gestor.actores (id, nombre, perfil) VALUES ('vendedor-1', 'Vendedor demo 1', 'VENDEDOR')");
      }
    }

    Settings laptop = SharedInfra.defaults().with(Map.of("data.dir", dataDir.toString(), "kafka.bootstrap", "127.0.0.1:1",
      "infra.pg-durable", false));
    try (Infrastructure infrastructure = Infrastructure.start(laptop, SharedInfra.EMBEDDED, KafkaAccess.grants(), 0, port, 0)) {
      Settings settings = infrastructure.settings();
      assertThat(Db.strings(settings, """
        SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('gestor', 'pedidos') AND pg_get_userbyid(c.relowner) <> n.nspname""")).isEmpty();

      Migrations.migrate(PgConfig.of(settings, "gestor"), true, List.of("gestor"));
      try (Connection gestor = Db.as(settings, "gestor"); Statement s = gestor.createStatement();
           ResultSet demo = s.executeQuery("SELECT count(*) FROM gestor.actores")) {
        demo.next();
        assertThat(demo.getLong(1)).as("the demo actors seeded as ccp").isPositive();
      }
      String url = "jdbc:postgresql://127.0.0.1:" + port + "/ccp";
      assertThatThrownBy(() -> DriverManager.getConnection(url, "ccp", "any-password").close())
        .as("the old login, which has no password: no password opens it").isInstanceOf(SQLException.class)
        .hasMessageContaining("password authentication failed for user \"ccp\"");
    }
  }
}
