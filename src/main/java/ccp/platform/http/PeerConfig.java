package ccp.platform.http;

import ccp.platform.config.Settings;

/**
 * Role-to-role trust ({@code peer.*}): the private JWK this process's calling role signs with, and the JWK Set of the
 * callers' public keys (kid = the caller's role id) that the roles receiving calls verify with.
 */
public record PeerConfig(String privateKey, String jwks) {

  public static PeerConfig from(Settings settings) {
    return new PeerConfig(settings.text("peer.private-key"), settings.text("peer.jwks"));
  }

  /** Leaves the private key out of logs. */
  @Override
  public String toString() {
    return "PeerConfig[private key " + (privateKey.isBlank() ? "unset" : "set") + ", " + jwks.length() + " characters of JWK Set]";
  }
}
