package ccp.platform.http;

import ccp.platform.config.Settings;

/** How the App's bearer tokens are signed and checked ({@code jwt.*}): the HS256 key, the issuer, the lifetime. */
public record JwtConfig(String secret, String issuer, int ttlMinutes) {

  public static JwtConfig from(Settings settings) {
    return new JwtConfig(settings.text("jwt.secret"), settings.text("jwt.issuer"), settings.integer("jwt.ttl-minutes"));
  }

  /** Leaves the key out of logs. */
  @Override
  public String toString() {
    return "JwtConfig[issuer " + issuer + ", " + ttlMinutes + " min]";
  }
}
