package ccp.seguridad.ssf;

import ccp.platform.async.Backoff;
import ccp.platform.config.Settings;

import java.util.Optional;

/**
 * The Shared Signals settings ({@code ssf.*}).
 *
 * @param issuer          the transmitter's Issuer Identifier, the base URL the receivers reach it at (the gateway's)
 * @param privateKey      the private RSA JWK the SETs are signed with (RS256), its public part published at
 *                        {@code <issuer>/ssf/jwks}
 * @param pushTimeoutMs   how long a push may take, whole: connection, request and answer
 * @param pushPrivadoPermitido a push endpoint may be plain http and a private address ({@code ssf.push-private-allowed}:
 *                        a laptop, the tests; never in a cluster)
 * @param reintento       the back-off between failed pushes of a SET
 * @param barridoMs       how often each seguridad process looks for SETs due (a new alert wakes its own at once)
 * @param receptor        the identity provider whose SETs the receiver acts on; absent when {@code ssf.receptor.jwks-url}
 *                        is empty
 * @param revocacionHoras how long a revocation asked for by the provider lasts ({@code reaccion.revocacion-horas})
 */
public record SsfConfig(String issuer, String privateKey, long pushTimeoutMs, boolean pushPrivadoPermitido, Backoff reintento, long barridoMs,
                        Optional<Receptor> receptor, int revocacionHoras) {

  /** The identity provider trusted to send SETs: its JWK Set, the {@code iss} it signs as, the {@code aud} it names us by. */
  public record Receptor(String jwksUrl, String issuer, String audience) {}

  /** The lease of a claimed push: longer than the push can take, so a second process never sends it meanwhile. */
  long reclamoMs() {
    return 2 * pushTimeoutMs + 1_000;
  }

  public static SsfConfig from(Settings settings) {
    String jwks = settings.text("ssf.receptor.jwks-url");
    Optional<Receptor> receptor = jwks.isEmpty() ? Optional.empty()
      : Optional.of(new Receptor(jwks, settings.text("ssf.receptor.issuer"), settings.text("ssf.receptor.audience")));
    return new SsfConfig(settings.text("ssf.issuer"), settings.text("ssf.private-key"), settings.integer("ssf.push-timeout-ms"),
      settings.flag("ssf.push-private-allowed"),
      new Backoff(settings.integer("ssf.retry-initial-ms"), settings.integer("ssf.retry-max-ms")), settings.integer("ssf.barrido-ms"),
      receptor, settings.integer("reaccion.revocacion-horas"));
  }
}
