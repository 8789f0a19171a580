package ccp.platform.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Applied migrations whose comments were later reworded, their statements untouched (ticket numbers replaced by the
 * names of what they were about; a comment a later migration had made false). Flyway checksums a migration's whole
 * text, comments included, and refuses to start on a database whose recorded checksum differs from the file's; so
 * before it validates, a recorded checksum equal to the old text's is moved to the new text's. Only those exact
 * pairs: any other edit of an applied migration is still refused, as Flyway means it to be.
 */
final class Rewordings {

  /** {@code before} and {@code after}: Flyway's checksum of the old and of the reworded file. */
  record Rewording(String schema, String version, int before, int after) {}

  static final List<Rewording> ALL = List.of(
    new Rewording("seguridad", "4", 497253534, -1388792729),
    new Rewording("seguridad", "5", 1545000654, -896788135),
    new Rewording("gestor", "6", 1126212557, -1604947748),
    new Rewording("inventario", "1", -1067193204, 1601353024),
    new Rewording("inventario", "2", 1411361918, 1034472183));

  private Rewordings() {}

  /** Blocking (JDBC), as the migration it precedes; as {@code schema}'s owner, who owns its history table. */
  static void apply(PgConfig pg, String schema) throws SQLException {
    List<Rewording> mine = ALL.stream().filter(r -> r.schema().equals(schema)).toList();
    if (mine.isEmpty()) return;
    String history = "\"" + schema + "\".flyway_schema_history";
    try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), pg.password())) {
      try (PreparedStatement exists = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
        exists.setString(1, history);
        try (ResultSet rs = exists.executeQuery()) {
          if (!rs.next() || !rs.getBoolean(1)) return;
        }
      }
      try (PreparedStatement update = c.prepareStatement("UPDATE " + history + " SET checksum = ? WHERE version = ? AND checksum = ?")) {
        for (Rewording r : mine) {
          update.setInt(1, r.after());
          update.setString(2, r.version());
          update.setInt(3, r.before());
          update.executeUpdate();
        }
      }
    }
  }
}
