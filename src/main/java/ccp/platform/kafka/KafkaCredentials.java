package ccp.platform.kafka;

import ccp.platform.config.SecretFile;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The embedded broker's passwords, generated once into {@code <data.dir>/kafka-credentials.json} (mode 600): the
 * super user's ({@code admin}) and one per role. Every process started from the same data directory reads the same
 * file; a role added later gets its password added.
 *
 * @param admin the super user's password, for the infrastructure (and tests that play an operator) only
 * @param roles role id → the password of its principal {@code ccp-<role>}
 */
public record KafkaCredentials(String admin, Map<String, String> roles) {

  public static final String FILE = "kafka-credentials.json";
  private static final String ADMIN = "admin";
  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  public KafkaCredentials {
    roles = Map.copyOf(roles);
  }

  public static boolean exist(Path dataDir) {
    return Files.exists(dataDir.resolve(FILE));
  }

  /** Reads the file, writing it first, or adding the roles it lacks. */
  public static KafkaCredentials resolve(Path dataDir, Collection<String> roles) throws IOException {
    Path file = dataDir.resolve(FILE);
    JsonObject stored = Files.exists(file) ? new JsonObject(Files.readString(file, StandardCharsets.UTF_8)) : new JsonObject();
    JsonObject wanted = stored.copy();
    if (!wanted.containsKey(ADMIN)) wanted.put(ADMIN, generate());
    for (String role : roles) {
      if (!wanted.containsKey(role)) wanted.put(role, generate());
    }
    if (!wanted.equals(stored)) SecretFile.write(file, wanted.encodePrettily());
    return of(wanted);
  }

  /** Reads the file an embedded broker wrote into {@code dataDir}. */
  public static KafkaCredentials read(Path dataDir) throws IOException {
    return of(new JsonObject(Files.readString(dataDir.resolve(FILE), StandardCharsets.UTF_8)));
  }

  /** The roles' SCRAM users: {@code ccp-<role>} → password. */
  public Map<String, String> users() {
    Map<String, String> users = new LinkedHashMap<>();
    roles.forEach((role, password) -> users.put(KafkaGrant.userOf(role), password));
    return users;
  }

  private static KafkaCredentials of(JsonObject json) {
    Map<String, String> roles = new LinkedHashMap<>();
    json.forEach(e -> {
      if (!e.getKey().equals(ADMIN)) roles.put(e.getKey(), (String) e.getValue());
    });
    return new KafkaCredentials(json.getString(ADMIN), roles);
  }


  /** 32 letters and digits (190 bits): safe between the double quotes of a JAAS configuration. */
  private static String generate() {
    StringBuilder password = new StringBuilder(32);
    for (int i = 0; i < 32; i++) password.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    return password.toString();
  }

  @Override
  public String toString() {
    return "KafkaCredentials[roles=" + roles.keySet() + "]";
  }
}
