package ccp.platform.http;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The door of the internal endpoints: a token signed by a calling role's own key ({@code peer.jwks}, kid = role id),
 * for this role (aud), short-lived (401 otherwise); and a caller the view draws on that endpoint (403 otherwise). The
 * caller is the key that verified the signature, never a claim.
 */
public final class PeerVerifier {

  private final Map<String, JsonObject> keys = new HashMap<>();
  private final Vertx vertx;

  private PeerVerifier(Vertx vertx, List<JsonObject> keys) {
    this.vertx = vertx;
    keys.forEach(key -> this.keys.put(key.getString("kid"), key));
  }

  /** Fails to build, naming the setting, when {@code peer.jwks} holds no usable key. */
  public static PeerVerifier create(Vertx vertx, PeerConfig config) {
    String setting = Settings.envName("peer.jwks");
    if (config.jwks().isBlank()) {
      throw new ConfigException(setting + " is not set: this role receives role-to-role calls and "
        + "verifies them with the callers' public keys");
    }
    return new PeerVerifier(vertx, Jwks.signingKeys(Jwks.parse(config.jwks(), setting), setting));
  }

  /** Peer tokens one handler keeps verified: a caller renews its token every half of its life, so a few suffice. */
  private static final int VERIFIED_CACHE_SIZE = 64;

  /** A token already verified: who signed it, and until when it holds (its {@code exp}, in seconds). */
  private record Verified(String caller, long expiresAtSecond) {}

  /**
   * A route handler admitting calls to role {@code callee} from the roles {@code callers} only. A token's signature and
   * lifetime are checked once, its expiry on every use, from a cache of its own confined to the verticle that routes
   * with it: an ES256 check costs about a millisecond, and the Detector calls the Gestor for every batch of writes (14 %
   * of the CPU samples of an order before, docs/performance.md). The keys are the configuration's: nothing verified
   * earlier can lose its signer meanwhile.
   */
  public Handler<RoutingContext> admit(String callee, String... callers) {
    Set<String> allowed = Set.of(callers);
    Map<String, JWTAuth> byCaller = new HashMap<>();
    keys.forEach((kid, key) -> byCaller.put(kid, JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)
      .setJWTOptions(new JWTOptions().setIssuer(kid).addAudience(callee).setLeeway(5)))));
    Map<String, Verified> verified = Verificados.hasta(VERIFIED_CACHE_SIZE);
    return ctx -> {
      String authorization = ctx.request().getHeader("Authorization");
      if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        ApiErrors.send(ctx, 401, "unauthorized", "missing Bearer token of a calling role");
        return;
      }
      String token = authorization.substring(7).trim();
      Verified known = verified.get(token);
      if (known != null && known.expiresAtSecond() > System.currentTimeMillis() / 1000) {
        admitted(ctx, known.caller(), allowed);
        return;
      }
      String malformed = Claims.problem(token, PeerSigner.TTL_SECONDS);
      if (malformed != null) {
        ApiErrors.send(ctx, 401, "unauthorized", "role token: " + malformed);
        return;
      }
      String caller = keyId(token);
      JWTAuth auth = caller == null ? null : byCaller.get(caller);
      if (auth == null) {
        ApiErrors.send(ctx, 401, "unauthorized", "token is not signed by a calling role's key (kid " + caller + " unknown)");
        return;
      }
      auth.authenticate(new TokenCredentials(token))
        .onSuccess(user -> {
          verified.put(token, new Verified(caller, ((Number) user.get("exp")).longValue()));
          admitted(ctx, caller, allowed);
        })
        .onFailure(err -> ApiErrors.send(ctx, 401, "unauthorized", "role token: " + Tokens.describe(err)));
    };
  }

  private static void admitted(RoutingContext ctx, String caller, Set<String> allowed) {
    if (allowed.contains(caller)) {
      ctx.next();
    } else {
      ApiErrors.send(ctx, 403, "caller_not_allowed", "role " + caller + " may not call " + ctx.request().path()
        + " (allowed: " + allowed + ")");
    }
  }

  /** The kid of the token's header; the signature check that follows proves it. */
  private static String keyId(String token) {
    int dot = token.indexOf('.');
    if (dot <= 0) return null;
    try {
      return new JsonObject(new String(Base64.getUrlDecoder().decode(token.substring(0, dot)), StandardCharsets.UTF_8)).getString("kid");
    } catch (RuntimeException e) {
      return null;
    }
  }
}
