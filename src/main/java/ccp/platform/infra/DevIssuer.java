package ccp.platform.infra;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.http.JwtConfig;
import ccp.platform.http.Jwks;
import ccp.platform.http.Tokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The development identity provider of a laptop run (embedded PostgreSQL): an RS256 key pair generated once into
 * {@code <data.dir>/dev-issuer.jwk} (mode 600; a key made before, ES256, keeps signing with its own algorithm). Its public JWK Set is served by {@link JwksEndpoint}; the roles verify
 * with it exactly as with Keycloak's. It mints tokens of the App's profiles only.
 */
public final class DevIssuer {

  public static final String FILE = "dev-issuer.jwk";

  private final JWTAuth auth;
  private final String algorithm;
  private final JwtConfig config;

  private DevIssuer(JWTAuth auth, String algorithm, JwtConfig config) {
    this.auth = auth;
    this.algorithm = algorithm;
    this.config = config;
  }

  /** The issuer of {@code settings}' data directory, its key made on first use. */
  public static DevIssuer open(Vertx vertx, Settings settings) throws IOException {
    JsonObject key = key(settings.dataDir());
    return new DevIssuer(JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)), key.getString("alg"), JwtConfig.from(settings));
  }

  /** The issuer of an existing private {@code key} (the console's development sign-in, which never makes one). */
  public static DevIssuer of(Vertx vertx, JsonObject key, JwtConfig config) {
    return new DevIssuer(JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)), key.getString("alg"), config);
  }

  /** The private JWK in {@code dataDir}, generated the first time. */
  public static JsonObject key(Path dataDir) throws IOException {
    Path file = dataDir.resolve(FILE);
    // An RSA key takes a moment to make: only when there is none yet.
    return Files.exists(file) ? Jwks.read(file) : Jwks.createOnce(file, Jwks.generateRs256("ccp-dev-issuer"));
  }

  /** The JWK Set that publishes {@code key}'s public part. */
  public static JsonObject jwks(JsonObject key) {
    return new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(key)));
  }

  /** A token for {@code actor} of an App profile, living {@code jwt.ttl-minutes}, for {@code jwt.audience}. */
  public String mint(String actor, String perfil) {
    if (!Tokens.PERFILES.contains(perfil)) {
      throw new ConfigException("perfil '" + perfil + "' is not an App profile (valid: " + Tokens.PERFILES + ")");
    }
    return auth.generateToken(new JsonObject().put("perfil", perfil), new JWTOptions().setAlgorithm(algorithm)
      .setSubject(actor).setIssuer(config.issuer()).addAudience(config.audience()).setExpiresInMinutes(config.ttlMinutes()));
  }
}
