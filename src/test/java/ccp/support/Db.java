package ccp.support;

import ccp.platform.config.Settings;
import ccp.platform.config.PgRoles;
import ccp.platform.infra.PgCredentials;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * JDBC on the test thread, as the operator (the embedded server's superuser), to arrange rows and to check what the
 * system wrote; {@link #as} logs in as a role's own login instead, to check what that role may do.
 */
public final class Db {

  private Db() {}

  public static int update(Settings settings, String sql, Object... params) {
    try (Connection c = superuser(settings); PreparedStatement s = prepare(c, sql, params)) {
      return s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static long count(Settings settings, String sql, Object... params) {
    try (Connection c = superuser(settings); PreparedStatement s = prepare(c, sql, params); ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static List<String> strings(Settings settings, String sql, Object... params) {
    try (Connection c = superuser(settings); PreparedStatement s = prepare(c, sql, params); ResultSet rs = s.executeQuery()) {
      List<String> values = new ArrayList<>();
      while (rs.next()) values.add(rs.getString(1));
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A new actor of the given profile, so that a test sees only its own sessions and alerts. */
  public static String newActor(Settings settings, String perfil) {
    String id = perfil.toLowerCase() + "-" + java.util.UUID.randomUUID().toString().substring(0, 12);
    update(settings, "INSERT INTO gestor.actores (id, nombre, perfil) VALUES (?, ?, ?)", id, "Test " + id, perfil);
    return id;
  }

  /** A connection as {@code role}'s login, with its password from {@code settings}. */
  public static Connection as(Settings settings, String role) throws SQLException {
    return as(settings, role, settings.text("pg.database"));
  }

  /** As {@link #as(Settings, String)}, to another database of the same server. */
  public static Connection as(Settings settings, String role, String database) throws SQLException {
    return DriverManager.getConnection(url(settings, database), role, settings.text(PgRoles.passwordKey(role)));
  }

  /** A connection as the superuser, whose password the embedded server keeps in {@code settings}' data directory. */
  public static Connection superuser(Settings settings) throws SQLException {
    return superuser(settings, settings.text("pg.database"));
  }

  /** As {@link #superuser(Settings)}, to another database of the same server. */
  public static Connection superuser(Settings settings, String database) throws SQLException {
    try {
      return DriverManager.getConnection(url(settings, database), PgCredentials.SUPERUSER,
        PgCredentials.inDataDir(settings.dataDir()).superuserPassword());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every wait bounded: a statement stuck behind a lock fails the test in a minute instead of holding the suite. */
  private static String url(Settings settings, String database) {
    return "jdbc:postgresql://" + settings.text("pg.host") + ":" + settings.integer("pg.port") + "/" + database
      + "?connectTimeout=10&socketTimeout=60";
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
    PreparedStatement s = c.prepareStatement(sql);
    for (int i = 0; i < params.length; i++) s.setObject(i + 1, params[i]);
    return s;
  }
}
