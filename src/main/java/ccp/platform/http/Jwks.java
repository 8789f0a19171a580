package ccp.platform.http;

import ccp.platform.config.ConfigException;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * JSON Web Keys (RFC 7517): RS256 and ES256 key pairs made here, and the public signing keys of a JWK Set kept apart from
 * anything a verifier must not trust (a shared-secret {@code oct} key, a key for encryption, a key without a kid).
 */
public final class Jwks {

  private static final Set<String> PRIVATE_MEMBERS = Set.of("d", "p", "q", "dp", "dq", "qi", "oth", "k");

  private Jwks() {}

  /** A new P-256 key pair as a private JWK ({@code d} included), for signing ES256 with key id {@code kid}. */
  public static JsonObject generateEs256(String kid) {
    try {
      return new JsonObject(new ECKeyGenerator(Curve.P_256).keyID(kid).algorithm(JWSAlgorithm.ES256).keyUse(KeyUse.SIGNATURE)
        .generate().toJSONObject());
    } catch (JOSEException e) {
      throw new IllegalStateException("this JVM cannot make P-256 keys", e);
    }
  }

  /**
   * A new 2048-bit RSA key pair as a private JWK (its CRT members included), for signing RS256 with key id {@code kid}.
   * What a role verifies many times per second is RS256: the JDK checks an RSA-2048 signature many times faster
   * than a P-256 one, so a process meeting a crowd of new tokens is not held up.
   */
  public static JsonObject generateRs256(String kid) {
    try {
      return new JsonObject(new RSAKeyGenerator(2048).keyID(kid).algorithm(JWSAlgorithm.RS256).keyUse(KeyUse.SIGNATURE)
        .generate().toJSONObject());
    } catch (JOSEException e) {
      throw new IllegalStateException("this JVM cannot make RSA keys", e);
    }
  }

  /** The key without its private members: what a JWK Set publishes. */
  public static JsonObject publicPart(JsonObject jwk) {
    JsonObject copy = jwk.copy();
    PRIVATE_MEMBERS.forEach(copy::remove);
    return copy;
  }

  /**
   * The usable public signing keys of a JWK Set's {@code keys}: RSA or EC, with a kid, not for encryption. A verifier
   * built with none would accept unsigned tokens (vertx-auth-jwt's "unsecure" mode): callers refuse to start then.
   */
  public static List<JsonObject> signingKeys(JsonObject jwks, String source) {
    Object keys = jwks.getValue("keys");
    if (!(keys instanceof JsonArray array)) throw new ConfigException(source + " is not a JWK Set (no \"keys\" array)");
    List<JsonObject> usable = new ArrayList<>();
    for (Object entry : array) {
      if (!(entry instanceof JsonObject key)) continue;
      if (!Set.of("EC", "RSA").contains(key.getString("kty")) || key.getString("kid", "").isBlank()) continue;
      if (key.containsKey("use") && !"sig".equals(key.getString("use"))) continue;
      JsonObject pub = publicPart(key);
      try {
        Jose.usable(pub);
        usable.add(pub);
      } catch (IllegalArgumentException ignored) {
        // An algorithm or curve this JVM does not know: not usable, and counted as such.
      }
    }
    if (usable.isEmpty()) {
      throw new ConfigException(source + " holds no usable signing key (RSA or EC, with a kid): refusing to verify with none");
    }
    return usable;
  }

  public static JsonObject parse(String json, String source) {
    try {
      return new JsonObject(json);
    } catch (DecodeException e) {
      throw new ConfigException(source + " is not JSON: " + e.getMessage());
    }
  }

  /** {@code key} written once to {@code file} (mode 600); when the file exists already, what it holds. */
  public static JsonObject createOnce(Path file, JsonObject key) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path temp = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName().toString(), ".tmp");
    try {
      restrict(temp);
      Files.writeString(temp, key.encodePrettily(), StandardCharsets.UTF_8);
      // A link fails when the name exists: two processes starting at once end up with the same key.
      Files.createLink(file, temp);
      return key;
    } catch (FileAlreadyExistsException e) {
      return read(file);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  public static JsonObject read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  private static void restrict(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException ignored) {
      // Not a POSIX file system: the file keeps the directory's permissions.
    }
  }
}
