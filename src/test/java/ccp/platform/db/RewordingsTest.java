package ccp.platform.db;

import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A database migrated before some applied migrations were reworded in their comments: it still starts, and an
 * applied migration changed in any other way is still refused. In a database of its own, so that no other test's
 * schemas move under it.
 */
@DisplayName("Migrations reworded in their comments only: an older database starts, any other edit is still refused")
class RewordingsTest {

  private final Settings settings = SharedInfra.settings();

  @Test
  @DisplayName("the old texts' checksums are moved to the new ones; a checksum matching neither still fails validation")
  void olderDatabaseStarts() throws SQLException {
    String database = "reworded_" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection superuser = Db.superuser(settings); Statement s = superuser.createStatement()) {
      s.execute("CREATE DATABASE " + database);
    }
    List<String> schemas = Rewordings.ALL.stream().map(Rewordings.Rewording::schema).distinct().toList();
    try {
      try (Connection c = Db.superuser(settings, database); Statement s = c.createStatement()) {
        s.execute(PgRoles.bootstrapSql());
      }
      for (String schema : schemas) Migrations.migrate(in(database, schema), false, List.of(schema));
      for (Rewordings.Rewording r : Rewordings.ALL) {
        assertThat(checksum(database, r)).as("Flyway's checksum of today's %s V%s", r.schema(), r.version()).isEqualTo(r.after());
        setChecksum(database, r, r.before());
      }

      for (String schema : schemas) Migrations.migrate(in(database, schema), false, List.of(schema));
      for (Rewordings.Rewording r : Rewordings.ALL) {
        assertThat(checksum(database, r)).as("%s V%s after the older database's start", r.schema(), r.version()).isEqualTo(r.after());
      }

      Rewordings.Rewording edited = Rewordings.ALL.get(0);
      setChecksum(database, edited, edited.before() + 1);
      assertThatThrownBy(() -> Migrations.migrate(in(database, edited.schema()), false, List.of(edited.schema())))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("checksum mismatch");
    } finally {
      try (Connection superuser = Db.superuser(settings); Statement s = superuser.createStatement()) {
        s.execute("DROP DATABASE " + database + " WITH (FORCE)");
      }
    }
  }

  private PgConfig in(String database, String schema) {
    PgConfig role = PgConfig.of(settings, schema);
    return new PgConfig(role.host(), role.port(), database, role.user(), role.password(), 1, role.statementTimeoutMs(),
      role.connectTimeoutMs());
  }

  private int checksum(String database, Rewordings.Rewording r) throws SQLException {
    try (Connection c = Db.superuser(settings, database);
         PreparedStatement s = c.prepareStatement("SELECT checksum FROM " + r.schema() + ".flyway_schema_history WHERE version = ?")) {
      s.setString(1, r.version());
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).as("%s V%s applied", r.schema(), r.version()).isTrue();
        return rs.getInt(1);
      }
    }
  }

  private void setChecksum(String database, Rewordings.Rewording r, int checksum) throws SQLException {
    try (Connection c = Db.superuser(settings, database);
         PreparedStatement s = c.prepareStatement("UPDATE " + r.schema() + ".flyway_schema_history SET checksum = ? WHERE version = ?")) {
      s.setInt(1, checksum);
      s.setString(2, r.version());
      assertThat(s.executeUpdate()).isOne();
    }
  }
}
