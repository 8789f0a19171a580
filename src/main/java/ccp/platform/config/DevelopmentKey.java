package ccp.platform.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

/**
 * The JWT signing secret. Configured ({@code CCP_JWT_SECRET}) it is used as given; left empty, it is only allowed
 * with the embedded PostgreSQL (a laptop), where a development key is generated once into the data directory so that
 * {@code token} and the running system agree.
 */
public final class DevelopmentKey {

  private static final String FILE = "dev-jwt-secret";

  private DevelopmentKey() {}

  /** The settings with {@code jwt.secret} set; on a laptop the first call writes the key into {@code data.dir}. */
  public static Settings resolve(Settings settings) throws IOException {
    if (!settings.text("jwt.secret").isEmpty()) return settings;
    if (!settings.embeddedPostgres()) {
      throw new ConfigException("jwt.secret is required when pg.host is set (set " + Settings.envName("jwt.secret") + ", 32+ characters)");
    }
    Path file = settings.dataDir().resolve(FILE);
    if (!Files.exists(file)) {
      Files.createDirectories(file.getParent());
      byte[] bytes = new byte[32];
      new SecureRandom().nextBytes(bytes);
      Files.writeString(file, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), StandardCharsets.US_ASCII);
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException ignored) {
        // Not a POSIX file system: the file keeps the directory's permissions.
      }
    }
    return settings.with(Map.of("jwt.secret", Files.readString(file, StandardCharsets.US_ASCII).trim()));
  }
}
