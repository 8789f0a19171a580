package ccp.platform.infra;

import ccp.platform.config.ConfigException;
import ccp.platform.config.SecretFile;
import ccp.platform.config.PgRoles;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The embedded PostgreSQL's passwords, generated once into {@code <data.dir>/pg-credentials.json} (mode 600): the
 * superuser's, which only the process holding the server uses, and each login role's ({@link PgRoles#LOGIN}). Every
 * process started from the same data directory (the laptop's {@code infra} and its role processes, the lab) reads the
 * same file; it is one flat JSON object, user to password, so that a shell script can read a role's line.
 */
public record PgCredentials(String superuserPassword, Map<String, String> logins) {

  public static final String SUPERUSER = "postgres";
  public static final String FILE = "pg-credentials.json";

  /**
   * One answer per data directory and process: the threads that start its servers and roles share it, and only the
   * first writes the file.
   */
  private static final ConcurrentMap<Path, PgCredentials> BY_DATA_DIR = new ConcurrentHashMap<>();

  /** Reads the data directory's file, first adding a password for any role it lacks (all of them, the first time). */
  public static PgCredentials inDataDir(Path dataDir) throws IOException {
    try {
      return BY_DATA_DIR.computeIfAbsent(dataDir.toAbsolutePath().normalize(), PgCredentials::load);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static PgCredentials load(Path dataDir) {
    try {
      return loadOrCreate(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static PgCredentials loadOrCreate(Path dataDir) throws IOException {
    Path file = dataDir.resolve(FILE);
    JsonObject stored = Files.exists(file) ? read(file) : new JsonObject();
    JsonObject complete = stored.copy();
    complete.getMap().putIfAbsent(SUPERUSER, generate());
    for (String role : PgRoles.LOGIN) complete.getMap().putIfAbsent(role, generate());
    if (!complete.equals(stored)) SecretFile.write(file, complete.encodePrettily());
    Map<String, String> logins = new LinkedHashMap<>();
    for (String role : PgRoles.LOGIN) logins.put(role, complete.getString(role));
    return new PgCredentials(complete.getString(SUPERUSER), logins);
  }

  /** What the embedded server is started with: these passwords and {@code db/bootstrap.sql}. */
  public LocalServers.PgAccess access() {
    return new LocalServers.PgAccess(superuserPassword, logins, PgRoles.bootstrapSql());
  }

  /** Each login role's password as its setting ({@code pg.password.<role>}). */
  public Map<String, Object> settings() {
    Map<String, Object> settings = new LinkedHashMap<>();
    logins.forEach((role, password) -> settings.put(PgRoles.passwordKey(role), password));
    return settings;
  }

  private static JsonObject read(Path file) throws IOException {
    try {
      JsonObject json = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
      for (String user : json.fieldNames()) {
        if (!(json.getValue(user) instanceof String)) throw new DecodeException("the value of " + user + " is not text");
      }
      return json;
    } catch (DecodeException e) {
      throw new ConfigException(file.toAbsolutePath() + " is not the embedded PostgreSQL's credentials (" + e.getMessage()
        + "): restore it, or delete it together with the postgres directory beside it to start afresh");
    }
  }

  private static String generate() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
