package ccp.support;

import ccp.platform.config.Settings;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** JDBC on the test thread, to arrange rows and to check what the system wrote. */
public final class Db {

  private Db() {}

  public static int update(Settings settings, String sql, Object... params) {
    try (Connection c = connect(settings); PreparedStatement s = prepare(c, sql, params)) {
      return s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static long count(Settings settings, String sql, Object... params) {
    try (Connection c = connect(settings); PreparedStatement s = prepare(c, sql, params); ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static List<String> strings(Settings settings, String sql, Object... params) {
    try (Connection c = connect(settings); PreparedStatement s = prepare(c, sql, params); ResultSet rs = s.executeQuery()) {
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

  private static Connection connect(Settings settings) throws SQLException {
    String url = "jdbc:postgresql://" + settings.text("pg.host") + ":" + settings.integer("pg.port") + "/" + settings.text("pg.database");
    return DriverManager.getConnection(url, settings.text("pg.user"), settings.text("pg.password"));
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
    PreparedStatement s = c.prepareStatement(sql);
    for (int i = 0; i < params.length; i++) s.setObject(i + 1, params[i]);
    return s;
  }
}
