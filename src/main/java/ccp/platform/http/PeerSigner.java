package ccp.platform.http;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

/**
 * The calling role's own identity towards the others: short-lived ES256 tokens signed with its private key
 * ({@code peer.private-key}), kid, issuer and subject its role id, audience the role called.
 */
public final class PeerSigner {

  /** How long a peer token lives; {@link PeerVerifier} accepts no longer. */
  static final int TTL_SECONDS = 300;

  private final JWTAuth auth;
  private final String caller;

  private PeerSigner(JWTAuth auth, String caller) {
    this.auth = auth;
    this.caller = caller;
  }

  /** The signer of role {@code caller}; the configured key must be that role's (its kid). */
  public static PeerSigner create(Vertx vertx, PeerConfig config, String caller) {
    String setting = Settings.envName("peer.private-key");
    if (config.privateKey().isBlank()) {
      throw new ConfigException(setting + " is not set: role " + caller + " calls other roles and signs with its own private JWK");
    }
    JsonObject jwk = Jwks.parse(config.privateKey(), setting);
    if (!caller.equals(jwk.getString("kid"))) {
      throw new ConfigException(setting + " has kid '" + jwk.getString("kid") + "': the key of role " + caller + " must have kid '" + caller + "'");
    }
    if (!"EC".equals(jwk.getString("kty")) || !jwk.containsKey("d")) {
      throw new ConfigException(setting + " must be a private EC (P-256) JWK, with \"d\"");
    }
    try {
      return new PeerSigner(JWTAuth.create(vertx, new JWTAuthOptions().addJwk(jwk.copy().put("alg", "ES256"))), caller);
    } catch (RuntimeException e) {
      throw new ConfigException(setting + " is not a usable ES256 key: " + e.getMessage());
    }
  }

  /** A new token for a call to role {@code callee}. */
  public String token(String callee) {
    return auth.generateToken(new JsonObject(), new JWTOptions().setAlgorithm("ES256").setIssuer(caller).setSubject(caller)
      .addAudience(callee).setExpiresInSeconds(TTL_SECONDS));
  }

  /** Tokens are renewed when half their life has passed. */
  public long renewAfterMillis() {
    return TTL_SECONDS * 500L;
  }
}
