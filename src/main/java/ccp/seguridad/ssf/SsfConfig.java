package ccp.seguridad.ssf;

import ccp.platform.async.Backoff;
import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;

import java.util.List;
import java.util.Optional;

/**
 * The Shared Signals settings ({@code ssf.*}).
 *
 * @param issuer          the transmitter's Issuer Identifier, the base URL the receivers reach it at (the gateway's)
 * @param privateKey      the private RSA JWK the SETs are signed with (RS256), its public part published at
 *                        {@code <issuer>/ssf/jwks}
 * @param pushTimeoutMs   how long a push may take, whole: connection, request and answer
 * @param destinos      where a push may go
 * @param reintento       the back-off between failed pushes of a SET
 * @param barridoMs       how often each seguridad process looks for SETs due (a new alert wakes its own at once)
 * @param receptor        the identity provider whose SETs the receiver acts on; absent when {@code ssf.receptor.jwks-url}
 *                        is empty
 * @param revocacionHoras how long a revocation asked for by the provider lasts ({@code reaccion.revocacion-horas})
 * @param flujosPorDueno  how many streams one client may hold ({@code ssf.streams-per-owner})
 */
public record SsfConfig(String issuer, String privateKey, long pushTimeoutMs, Destinos destinos, Backoff reintento, long barridoMs,
                        Optional<Receptor> receptor, int revocacionHoras, int flujosPorDueno) {

  /**
   * The identity provider trusted to send SETs: its JWK Set, the {@code iss} it signs as, the {@code aud} it names us by,
   * and the clock skew allowed on its SETs' {@code iat}, {@code nbf} and {@code exp} ({@code ssf.receptor.clock-skew-s}).
   */
  public record Receptor(String jwksUrl, String issuer, String audience, long holguraS) {}

  /**
   * Where a push may go: anywhere, plain http too ({@code ssf.push-private-allowed}: a laptop, the tests; never in a
   * cluster); else https to public addresses only, never to the {@code denegados} ranges (the cluster's service and pod
   * ranges, {@code ssf.push-denied-cidrs}), and to the {@code permitidos} ones whatever else says
   * ({@code ssf.push-allowed-cidrs}: an operator's receiver inside the cluster).
   */
  public record Destinos(boolean privadoPermitido, List<Rango> denegados, List<Rango> permitidos) {}

  /** The lease of a claimed push: longer than the push can take, so a second process never sends it meanwhile. */
  long reclamoMs() {
    return 2 * pushTimeoutMs + 1_000;
  }

  public static SsfConfig from(Settings settings) {
    String jwks = settings.text("ssf.receptor.jwks-url");
    Optional<Receptor> receptor = jwks.isEmpty() ? Optional.empty()
      : Optional.of(new Receptor(jwks, settings.text("ssf.receptor.issuer"), settings.text("ssf.receptor.audience"),
        settings.integer("ssf.receptor.clock-skew-s")));
    Destinos destinos = new Destinos(settings.flag("ssf.push-private-allowed"), rangos(settings, "ssf.push-denied-cidrs"),
      rangos(settings, "ssf.push-allowed-cidrs"));
    return new SsfConfig(settings.text("ssf.issuer"), settings.text("ssf.private-key"), settings.integer("ssf.push-timeout-ms"),
      destinos, new Backoff(settings.integer("ssf.retry-initial-ms"), settings.integer("ssf.retry-max-ms")),
      settings.integer("ssf.barrido-ms"), receptor, settings.integer("reaccion.revocacion-horas"),
      settings.integer("ssf.streams-per-owner"));
  }

  private static List<Rango> rangos(Settings settings, String key) {
    try {
      return Rango.lista(settings.text(key));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key + " (" + Settings.envName(key) + "): " + e.getMessage());
    }
  }
}
