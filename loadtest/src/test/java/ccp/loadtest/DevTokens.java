package ccp.loadtest;

import io.vertx.core.json.JsonObject;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.Base64;

/**
 * Bearer tokens as the development issuer makes them (RS256, or ES256 for a key made before) (subject = actor, {@code perfil}, issuer, audience, issue
 * time, expiry), signed with its key from the system's data directory ({@code dev-issuer.jwk}): minted here, so that
 * each improper write can come from an actor of its own.
 */
final class DevTokens {

  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
  /** The roles accept at most {@code jwt.max-ttl-minutes} (60 by default). */
  private static final long TTL_SECONDS = 3600;

  private final boolean rsa;
  private final PrivateKey key;
  private final String header;
  private final String issuer;
  private final String audience;

  DevTokens(JsonObject jwk, String issuer, String audience) {
    this.rsa = "RSA".equals(jwk.getString("kty"));
    try {
      this.key = rsa ? rsaKey(jwk) : ecKey(jwk);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("the development issuer's key is not a private RSA or P-256 JWK: " + e.getMessage(), e);
    }
    this.header = URL.encodeToString(new JsonObject().put("alg", rsa ? "RS256" : "ES256").put("typ", "JWT")
      .put("kid", jwk.getString("kid")).encode().getBytes(StandardCharsets.UTF_8));
    this.issuer = issuer;
    this.audience = audience;
  }

  private static PrivateKey rsaKey(JsonObject jwk) throws GeneralSecurityException {
    return KeyFactory.getInstance("RSA").generatePrivate(new RSAPrivateCrtKeySpec(number(jwk, "n"), number(jwk, "e"),
      number(jwk, "d"), number(jwk, "p"), number(jwk, "q"), number(jwk, "dp"), number(jwk, "dq"), number(jwk, "qi")));
  }

  private static PrivateKey ecKey(JsonObject jwk) throws GeneralSecurityException {
    AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
    parameters.init(new ECGenParameterSpec("secp256r1"));
    return KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(number(jwk, "d"),
      parameters.getParameterSpec(ECParameterSpec.class)));
  }

  private static BigInteger number(JsonObject jwk, String member) {
    return new BigInteger(1, Base64.getUrlDecoder().decode(jwk.getString(member)));
  }

  String bearer(String actor, String perfil) {
    long now = System.currentTimeMillis() / 1000;
    String claims = new JsonObject().put("perfil", perfil).put("sub", actor).put("iss", issuer).put("aud", audience)
      .put("iat", now).put("exp", now + TTL_SECONDS).encode();
    String unsigned = header + "." + URL.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    try {
      // A Signature is not thread-safe and virtual users run on several threads: one per call, it is cheap.
      Signature signature = Signature.getInstance(rsa ? "SHA256withRSA" : "SHA256withECDSAinP1363Format");
      signature.initSign(key);
      signature.update(unsigned.getBytes(StandardCharsets.US_ASCII));
      return "Bearer " + unsigned + "." + URL.encodeToString(signature.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign a development token", e);
    }
  }
}
