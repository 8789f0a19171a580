package ccp.seguridad.ssf;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.http.Jose;
import ccp.platform.http.Jwks;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Signs SETs as the transmitter (RS256, {@code ssf.private-key}) and publishes the public key. A SET is signed when it
 * is sent, not when stored, so the key set need publish only the current key: one rotated while SETs wait (a paused
 * stream, a receiver down, polls not acknowledged) signs them with the new one. The JOSE header carries the explicit
 * type {@code secevent+jwt} (SSF 1.0 §4.1.1), which keeps a SET from being taken for an access token.
 */
public final class FirmaSet {

  private final Jose.Signer signer;
  private final JsonObject header;
  private final JsonObject jwks;

  private FirmaSet(Jose.Signer signer, String kid, JsonObject publicKey) {
    this.signer = signer;
    this.header = new JsonObject().put("alg", "RS256").put("typ", "secevent+jwt").put("kid", kid);
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
    try {
      return new FirmaSet(Jose.signer(jwk), jwk.getString("kid"), Jwks.publicPart(jwk).put("use", "sig"));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(setting + " is not a usable private RSA JWK: " + e.getMessage());
    }
  }

  /**
   * The compact JWS of {@code claims} (the payload's JSON, signed as it is), typed {@code secevent+jwt}. RS256 is
   * deterministic: the same claims under the same key are the very same token.
   */
  String firmar(String claims) {
    return signer.sign(header, claims);
  }

  /** The JWK Set served at {@code jwks_uri}. */
  public JsonObject jwks() {
    return jwks;
  }
}
