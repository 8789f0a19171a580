package ccp.platform.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * A JWT's header and claims type-checked before anything reads them, so that a token with a claim of the wrong type —
 * signed by a trusted key or not — is a 401 naming the claim, never a failure inside the verifier (a 500): {@code alg},
 * {@code kid} and {@code typ} strings; {@code iss} and {@code sub} strings; {@code aud} a string or an array of strings;
 * {@code exp} and {@code iat} present, {@code nbf} optional, numbers (NumericDate, RFC 7519) between 2000 and 2100. The
 * lifetime rule vertx-auth-jwt leaves out follows: {@code exp - iat} at most the maximum. The dates' range comes first, so
 * the subtraction cannot overflow and a token "valid for ever" ({@code iat = -2^63, exp = 2^63 - 1}) is refused.
 */
final class Claims {

  /** 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z: no token of this system was issued, or lives, outside them. */
  static final long EARLIEST = 946_684_800L;
  static final long LATEST = 4_102_444_800L;

  private Claims() {}

  /** What is wrong with the token's header or claims, or null. The signature is not checked here. */
  static String problem(String token, long maxLifetimeSeconds) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) return "token is not valid: not a JWT (header.payload.signature)";
    JsonObject header = json(parts[0]);
    JsonObject claims = json(parts[1]);
    if (header == null) return "token is not valid: its header is not a base64url JSON object";
    if (claims == null) return "token is not valid: its payload is not a base64url JSON object";
    for (String name : List.of("alg", "kid", "typ")) {
      if (header.containsKey(name) && !(header.getValue(name) instanceof String)) return "token header " + name + " must be a string";
    }
    for (String name : List.of("iss", "sub")) {
      if (claims.containsKey(name) && !(claims.getValue(name) instanceof String)) return "token claim " + name + " must be a string";
    }
    if (claims.containsKey("aud") && !audience(claims.getValue("aud"))) {
      return "token claim aud must be a string or an array of strings";
    }
    if (claims.getValue("exp") == null) return "token has no expiry (exp)";
    if (claims.getValue("iat") == null) return "token has no issue time (iat)";
    for (String name : List.of("exp", "iat", "nbf")) {
      if (!claims.containsKey(name)) continue;
      if (!(claims.getValue(name) instanceof Number date)) return "token claim " + name + " must be a number (seconds since 1970)";
      double seconds = date.doubleValue();
      if (!(seconds >= EARLIEST && seconds <= LATEST)) return "token claim " + name + " is not a date between 2000 and 2100";
    }
    long lifetime = claims.getNumber("exp").longValue() - claims.getNumber("iat").longValue();
    if (lifetime > maxLifetimeSeconds) return "token lives " + lifetime + " s, longer than the " + maxLifetimeSeconds + " s allowed";
    return null;
  }

  /**
   * Why the well-typed claims of a token are refused at {@code nowSecond}, or null: expired, not valid yet, issued in the
   * future (each give or take {@code leewaySeconds}), not for this audience, not from the trusted issuer. Checked before
   * the signature, so the answer names the claim; what the verifier refuses after these pass is the signature or key.
   */
  static String refusal(String token, long nowSecond, long leewaySeconds, String issuer, String audience) {
    JsonObject claims = json(token.split("\\.", -1)[1]);
    if (claims.getNumber("exp").doubleValue() <= nowSecond - leewaySeconds) return "token expired";
    if (claims.containsKey("nbf") && claims.getNumber("nbf").doubleValue() > nowSecond + leewaySeconds) {
      return "token is not valid yet (nbf)";
    }
    if (claims.getNumber("iat").doubleValue() > nowSecond + leewaySeconds) return "token is issued in the future (iat)";
    Object aud = claims.getValue("aud");
    if (!(audience.equals(aud) || aud instanceof JsonArray list && list.contains(audience))) {
      return "token is not for this audience (aud)";
    }
    if (!issuer.equals(claims.getValue("iss"))) return "token is not from the trusted issuer (iss)";
    return null;
  }

  private static boolean audience(Object aud) {
    if (aud instanceof String) return true;
    if (!(aud instanceof JsonArray list) || list.isEmpty()) return false;
    return list.stream().allMatch(String.class::isInstance);
  }

  private static JsonObject json(String part) {
    try {
      return new JsonObject(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
    } catch (RuntimeException notJson) {
      return null;
    }
  }
}
