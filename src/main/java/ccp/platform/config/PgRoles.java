package ccp.platform.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The database's login roles: one per process group ({@code ccp.app.Role} ids, each the owner of its schemas) and the
 * lab's. {@code db/bootstrap.sql} creates them, the schemas and the group roles; a DBA runs it on an external server,
 * the embedded one runs it at every start. Here, beside {@link Settings}, because each role's password is a setting.
 */
public final class PgRoles {

  public static final List<String> LOGIN = List.of("gateway", "gestor", "seguridad", "pedidos", "cadena", "facturacion",
    "inventario", "despacho", "vigilancia", "lab");

  private static final String BOOTSTRAP = "db/bootstrap.sql";

  private PgRoles() {}

  /** The setting that holds {@code role}'s password. */
  public static String passwordKey(String role) {
    return "pg.password." + role;
  }

  /** {@code db/bootstrap.sql}: run by a superuser, idempotent. */
  public static String bootstrapSql() {
    try (InputStream in = PgRoles.class.getClassLoader().getResourceAsStream(BOOTSTRAP)) {
      if (in == null) throw new IllegalStateException(BOOTSTRAP + " is not on the classpath");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
