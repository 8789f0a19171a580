package ccp.support;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

import java.time.Instant;

/** Tokens as an identity provider (or an attacker) would make them, signed with a chosen secret. */
public final class TestTokens {

  private final JWTAuth auth;

  private TestTokens(JWTAuth auth) {
    this.auth = auth;
  }

  public static TestTokens signedWith(Vertx vertx, String secret) {
    return new TestTokens(JWTAuth.create(vertx, new JWTAuthOptions()
      .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(secret))));
  }

  public String valid(String actor, String perfil) {
    return auth.generateToken(new JsonObject().put("perfil", perfil),
      new JWTOptions().setSubject(actor).setIssuer("ccp").setExpiresInMinutes(10));
  }

  public String expired(String actor) {
    long past = Instant.now().minusSeconds(3600).getEpochSecond();
    return auth.generateToken(new JsonObject().put("perfil", "VENDEDOR").put("exp", past).put("iat", past - 60),
      new JWTOptions().setSubject(actor).setIssuer("ccp").setNoTimestamp(true));
  }

  public String withoutExpiry(String actor) {
    return auth.generateToken(new JsonObject().put("perfil", "VENDEDOR"), new JWTOptions().setSubject(actor).setIssuer("ccp"));
  }
}
