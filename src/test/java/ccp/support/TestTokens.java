package ccp.support;

import ccp.platform.http.Jwks;
import ccp.platform.infra.DevIssuer;
import ccp.platform.infra.DevPeerKeys;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;

/**
 * Tokens as the development issuer makes them (RS256, its key in the data directory), or as an attacker would: signed
 * by another key under the issuer's kid, HS256 with a shared secret, unsigned, too long-lived, for another audience or
 * from another issuer. And role-to-role tokens signed with a role's own peer key.
 */
public final class TestTokens {

  public static final String ISSUER = "ccp";
  public static final String AUDIENCE = "ccp-app";

  private final JWTAuth auth;
  private final String algorithm;

  private TestTokens(JWTAuth auth, String algorithm) {
    this.auth = auth;
    this.algorithm = algorithm;
  }

  /** The development issuer of the shared test infrastructure. */
  public static TestTokens devIssuer(Vertx vertx) {
    return devIssuer(vertx, SharedInfra.dataDir());
  }

  /** The development issuer whose key is in {@code dataDir}. */
  public static TestTokens devIssuer(Vertx vertx, Path dataDir) {
    try {
      return signedBy(vertx, DevIssuer.key(dataDir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A key of the attacker's, presented under the development issuer's own kid. */
  public static TestTokens attacker(Vertx vertx) {
    return signedBy(vertx, Jwks.generateRs256("ccp-dev-issuer"));
  }

  /** HS256 with a shared secret, as the system signed its tokens before it trusted an issuer's public keys. */
  public static TestTokens sharedSecret(Vertx vertx, String secret) {
    return new TestTokens(JWTAuth.create(vertx, new JWTAuthOptions()
      .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(secret))), "HS256");
  }

  private static TestTokens signedBy(Vertx vertx, JsonObject key) {
    return new TestTokens(JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)), key.getString("alg"));
  }

  public String valid(String actor, String perfil) {
    return auth.generateToken(new JsonObject().put("perfil", perfil), options(actor).setExpiresInMinutes(10));
  }

  public String expired(String actor) {
    long past = Instant.now().minusSeconds(3600).getEpochSecond();
    return auth.generateToken(new JsonObject().put("perfil", "VENDEDOR").put("exp", past).put("iat", past - 60),
      options(actor).setNoTimestamp(true));
  }

  public String withoutExpiry(String actor) {
    return auth.generateToken(new JsonObject().put("perfil", "VENDEDOR"), options(actor));
  }

  /** A token that lives {@code minutes} from now. */
  public String living(String actor, String perfil, int minutes) {
    return auth.generateToken(new JsonObject().put("perfil", perfil), options(actor).setExpiresInMinutes(minutes));
  }

  /** A token that lives {@code seconds} from now. */
  public String livingSeconds(String actor, String perfil, int seconds) {
    return auth.generateToken(new JsonObject().put("perfil", perfil), options(actor).setExpiresInSeconds(seconds));
  }

  public String forAudience(String actor, String audience) {
    return auth.generateToken(new JsonObject().put("perfil", "VENDEDOR"), new JWTOptions().setAlgorithm(algorithm)
      .setSubject(actor).setIssuer(ISSUER).addAudience(audience).setExpiresInMinutes(10));
  }

  public String fromIssuer(String actor, String issuer) {
    return auth.generateToken(new JsonObject().put("perfil", "VENDEDOR"), new JWTOptions().setAlgorithm(algorithm)
      .setSubject(actor).setIssuer(issuer).addAudience(AUDIENCE).setExpiresInMinutes(10));
  }

  /**
   * Exactly {@code claims}, nothing added, signed by this key: a token the issuer signed with claims of the wrong type or
   * out of range.
   */
  public String withClaims(JsonObject claims) {
    return auth.generateToken(claims, new JWTOptions().setAlgorithm(algorithm).setNoTimestamp(true));
  }

  /** The claims of a sound token of {@code actor}: a starting point to spoil one claim of. */
  public static JsonObject claims(String actor, String perfil) {
    long now = Instant.now().getEpochSecond();
    return new JsonObject().put("sub", actor).put("perfil", perfil).put("iss", ISSUER).put("aud", AUDIENCE)
      .put("iat", now).put("exp", now + 600);
  }

  /** A role-to-role token of {@code caller} made of exactly {@code claims}, signed with its peer key. */
  public static String peerWithClaims(Vertx vertx, String caller, JsonObject claims) {
    try {
      JsonObject key = DevPeerKeys.ensure(SharedInfra.dataDir()).privateKey(caller);
      return JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)).generateToken(claims, new JWTOptions()
        .setAlgorithm("ES256").setNoTimestamp(true));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code alg: none}, no signature: what a verifier with no key would take. */
  public static String unsigned(String actor, String perfil) {
    JsonObject claims = claims(actor, perfil);
    return base64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + base64(claims.encode()) + ".";
  }

  /** A role-to-role token of {@code caller}, signed with its peer key in the shared data directory, for {@code callee}. */
  public static String peer(Vertx vertx, String caller, String callee) {
    return peer(vertx, SharedInfra.dataDir(), caller, callee);
  }

  public static String peer(Vertx vertx, Path dataDir, String caller, String callee) {
    try {
      JsonObject key = DevPeerKeys.ensure(dataDir).privateKey(caller);
      return JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)).generateToken(new JsonObject(), new JWTOptions()
        .setAlgorithm("ES256").setIssuer(caller).setSubject(caller).addAudience(callee).setExpiresInSeconds(60));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private JWTOptions options(String actor) {
    return new JWTOptions().setAlgorithm(algorithm).setSubject(actor).setIssuer(ISSUER).addAudience(AUDIENCE);
  }

  private static String base64(String json) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
