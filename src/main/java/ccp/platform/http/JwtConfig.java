package ccp.platform.http;

import ccp.platform.config.Settings;

/**
 * How the App's bearer tokens are checked ({@code jwt.*}): the issuer's JWK Set URL, the issuer and audience they must
 * name, the longest lifetime accepted; and the lifetime of the tokens the development issuer mints.
 */
public record JwtConfig(String jwksUrl, String issuer, String audience, int maxTtlMinutes, int ttlMinutes) {

  public static JwtConfig from(Settings settings) {
    return new JwtConfig(settings.text("jwt.jwks-url"), settings.text("jwt.issuer"), settings.text("jwt.audience"),
      settings.integer("jwt.max-ttl-minutes"), settings.integer("jwt.ttl-minutes"));
  }
}
