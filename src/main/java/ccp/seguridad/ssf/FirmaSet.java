package ccp.seguridad.ssf;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.http.Jwks;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.impl.jose.JWK;
import io.vertx.ext.auth.impl.jose.JWS;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Signs SETs as the transmitter (RS256, {@code ssf.private-key}) and publishes the public key. A SET is signed when it
 * is sent, not when stored, so the key set need publish only the current key: one rotated while SETs wait (a paused
 * stream, a receiver down, polls not acknowledged) signs them with the new one. The JOSE header is
 * written here rather than by Vert.x's JWT signer, which always writes {@code "typ": "JWT"}: SSF requires the
 * explicit type {@code secevent+jwt} (SSF 1.0 §4.1.1), which keeps a SET from being taken for an access token.
 */
public final class FirmaSet {

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final JWS jws;
  private final String header;
  private final JsonObject jwks;

  private FirmaSet(JWS jws, String kid, JsonObject publicKey) {
    this.jws = jws;
    this.header = B64.encodeToString(new JsonObject().put("alg", "RS256").put("typ", "secevent+jwt").put("kid", kid).encode()
      .getBytes(StandardCharsets.UTF_8));
    this.jwks = new JsonObject().put("keys", new JsonArray().add(publicKey));
  }

  /** @throws ConfigException when the key is missing or not a private RSA JWK with a kid */
  public static FirmaSet of(String privateJwk) {
    String setting = Settings.envName("ssf.private-key");
    if (privateJwk.isBlank()) {
      throw new ConfigException(setting + " is not set: the seguridad role signs its security events (SETs) with its own private RSA JWK");
    }
    JsonObject jwk = Jwks.parse(privateJwk, setting);
    if (!"RSA".equals(jwk.getString("kty")) || !jwk.containsKey("d") || jwk.getString("kid", "").isBlank()) {
      throw new ConfigException(setting + " must be a private RSA JWK (with \"d\") with a \"kid\"");
    }
    jwk = jwk.copy().put("alg", "RS256");
    return new FirmaSet(new JWS(new JWK(jwk)), jwk.getString("kid"), Jwks.publicPart(jwk).put("use", "sig"));
  }

  /**
   * The compact JWS of {@code claims} (the payload's JSON, signed as it is), typed {@code secevent+jwt}. RS256 is
   * deterministic: the same claims under the same key are the very same token.
   */
  String firmar(String claims) {
    String input = header + "." + B64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    return input + "." + B64.encodeToString(jws.sign(input.getBytes(StandardCharsets.US_ASCII)));
  }

  /** The JWK Set served at {@code jwks_uri}. */
  public JsonObject jwks() {
    return jwks;
  }
}
