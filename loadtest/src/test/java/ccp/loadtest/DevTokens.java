package ccp.loadtest;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;

/**
 * HS256 bearer tokens as the system's {@code Tokens.mint} makes them (subject = actor, {@code perfil}, issuer, expiry),
 * signed with the same key: minted here, so that each improper write can come from an actor of its own.
 */
final class DevTokens {

  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
  private static final String HEADER = URL.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
  private static final long TTL_SECONDS = 3600;

  private final SecretKeySpec key;

  DevTokens(String secret) {
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  /** {@code actor} and {@code perfil} are plain ids (letters, digits, {@code -_.}): no JSON escaping is needed. */
  String bearer(String actor, String perfil) {
    long now = System.currentTimeMillis() / 1000;
    String claims = "{\"perfil\":\"" + perfil + "\",\"sub\":\"" + actor + "\",\"iss\":\"ccp\",\"iat\":" + now
      + ",\"exp\":" + (now + TTL_SECONDS) + "}";
    String unsigned = HEADER + "." + URL.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    try {
      // A Mac is not thread-safe and virtual users run on several threads: one per call, it is cheap.
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return "Bearer " + unsigned + "." + URL.encodeToString(mac.doFinal(unsigned.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}
