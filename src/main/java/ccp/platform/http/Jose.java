package ccp.platform.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compact JWS (RFC 7515) through Nimbus JOSE+JWT: a token's parts read without a check, a signature made with a private
 * RSA JWK, and a signature checked against a set of public keys — each failure its own exception type, so that a caller
 * decides by the type, never by a message.
 */
public final class Jose {

  private static final DefaultJWSVerifierFactory VERIFIERS = new DefaultJWSVerifierFactory();

  private Jose() {}

  /** The token is not a compact JWS whose header and payload are JSON objects. */
  public static final class Malformed extends RuntimeException {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /** No key of the set has the token's kid (or, without a kid, suits its alg): perhaps one the issuer rotated in. */
  public static final class UnknownKey extends RuntimeException {
    UnknownKey(String message) {
      super(message, null, false, false);
    }
  }

  /** A key of the set was chosen and the signature does not verify with it. */
  public static final class BadSignature extends RuntimeException {
    BadSignature(String message) {
      super(message, null, false, false);
    }
  }

  /** The header and payload of a compact JWS, not checked. */
  public record Parts(JsonObject header, JsonObject payload) {}

  /** @throws Malformed when the token is not a compact JWS of JSON objects */
  public static Parts parts(String token) {
    JWSObject jws = parse(token);
    return new Parts(new JsonObject(jws.getHeader().toJSONObject()), payload(jws));
  }

  /** @throws IllegalArgumentException when {@code key} is not a private RSA JWK this JVM can sign with */
  public static Signer signer(JsonObject key) {
    try {
      return new Signer(new RSASSASigner(RSAKey.parse(key.encode())));
    } catch (ParseException | JOSEException e) {
      throw new IllegalArgumentException("not a private RSA JWK: " + e.getMessage(), e);
    }
  }

  /** Signs with one private RSA key. */
  public static final class Signer {

    private final RSASSASigner signer;

    private Signer(RSASSASigner signer) {
      this.signer = signer;
    }

    /**
     * The compact JWS of {@code payload} (JSON, signed as it is) under {@code header} (written as it is, so that its
     * {@code typ} is the caller's), by the header's RS* algorithm.
     */
    public String sign(JsonObject header, String payload) {
      try {
        String input = Base64URL.encode(header.encode()) + "." + Base64URL.encode(payload.getBytes(StandardCharsets.UTF_8));
        return input + "." + signer.sign(JWSHeader.parse(header.encode()), input.getBytes(StandardCharsets.US_ASCII));
      } catch (ParseException | JOSEException e) {
        throw new IllegalArgumentException("cannot sign under this header: " + e.getMessage(), e);
      }
    }
  }

  /** Public signing keys to check tokens against. */
  public static final class KeySet {

    private final List<JWK> keys;

    private KeySet(List<JWK> keys) {
      this.keys = keys;
    }

    /** @throws IllegalArgumentException when a key is not a public RSA or EC JWK this JVM can use */
    public static KeySet of(List<JsonObject> jwks) {
      List<JWK> parsed = new ArrayList<>();
      for (JsonObject jwk : jwks) parsed.add(usable(jwk));
      return new KeySet(List.copyOf(parsed));
    }

    /**
     * The payload of {@code token}, its signature checked with the key its header names.
     *
     * @throws Malformed    when the token is not a compact JWS of JSON objects
     * @throws UnknownKey   when no key of the set has its kid and suits its alg
     * @throws BadSignature when the signature does not verify
     */
    public JsonObject verify(String token) {
      JWSObject jws = parse(token);
      JsonObject payload = payload(jws);
      JWSHeader header = jws.getHeader();
      for (JWK key : keys) {
        if (header.getKeyID() != null && !header.getKeyID().equals(key.getKeyID())) continue;
        JWSVerifier verifier = verifier(header, key);
        if (verifier == null) continue;
        try {
          if (jws.verify(verifier)) return payload;
        } catch (JOSEException e) {
          throw new BadSignature("the signature cannot be checked: " + e.getMessage());
        }
        if (header.getKeyID() != null) throw new BadSignature("the signature does not verify with key " + key.getKeyID());
      }
      if (header.getKeyID() == null) throw new UnknownKey("no key of the set verifies this " + header.getAlgorithm() + " signature");
      throw new UnknownKey("no " + header.getAlgorithm() + " key with kid " + header.getKeyID());
    }
  }

  /** @throws IllegalArgumentException when the JWK is not an RSA or EC public key this JVM can use */
  static JWK usable(JsonObject jwk) {
    try {
      JWK parsed = JWK.parse(jwk.encode());
      if (!(parsed instanceof AsymmetricJWK asymmetric)) throw new IllegalArgumentException("not an RSA or EC key");
      asymmetric.toPublicKey();
      return parsed.toPublicJWK();
    } catch (ParseException | JOSEException e) {
      throw new IllegalArgumentException("not a usable JWK: " + e.getMessage(), e);
    }
  }

  private static JWSVerifier verifier(JWSHeader header, JWK key) {
    if (key.getAlgorithm() != null && !key.getAlgorithm().equals(header.getAlgorithm())) return null;
    try {
      Key publicKey = ((AsymmetricJWK) key).toPublicKey();
      boolean suits = JWSAlgorithm.Family.RSA.contains(header.getAlgorithm()) ? "RSA".equals(publicKey.getAlgorithm())
        : JWSAlgorithm.Family.EC.contains(header.getAlgorithm()) && "EC".equals(publicKey.getAlgorithm());
      return suits ? VERIFIERS.createJWSVerifier(header, publicKey) : null;
    } catch (JOSEException e) {
      return null;
    }
  }

  private static JWSObject parse(String token) {
    try {
      return JWSObject.parse(token);
    } catch (ParseException e) {
      throw new Malformed("not a compact JWS: " + e.getMessage());
    }
  }

  private static JsonObject payload(JWSObject jws) {
    try {
      return new JsonObject(jws.getPayload().toString());
    } catch (RuntimeException e) {
      throw new Malformed("its payload is not a JSON object");
    }
  }
}
