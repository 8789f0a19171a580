package ccp.platform.http;

import ccp.platform.config.Settings;

/**
 * The HTTP settings every role shares: its servers' and its clients' ({@code http.*}).
 *
 * @param idleTimeoutMs    a connection with no byte read or written for this long is closed: one that never sends a
 *                         complete request, or a keep-alive connection (a phone behind NAT) nobody uses any more
 * @param requestTimeoutMs a request not answered within this long is answered 503 with {@code Retry-After}
 * @param admissionInitial the concurrency each route class of a verticle admits at first ({@link Admission})
 * @param admissionMin     the least it ever admits, however slow its requests get
 * @param admissionMax     the most it ever admits
 * @param admissionTargetMs an answer of writes or reads slower than this shrinks its class's limit (twice it, the
 *                         security paths')
 * @param admissionDelayMs past this standing delay of its event loop a verticle refuses writes and reads at once (four
 *                         times it, the security paths); 0: not at all ({@link EventLoopDelay})
 * @param admissionAdminLimit the least the security area's own changes (devices, lifted revocations, streams) are
 *                         admitted, however slow their answers
 */
public record HttpConfig(String host, int instances, int maxConnections, int bodyLimitBytes, int clientTimeoutMs, int clientPoolSize,
                         int idleTimeoutMs, int requestTimeoutMs, int admissionInitial, int admissionMin, int admissionMax,
                         int admissionTargetMs, int admissionDelayMs, int admissionAdminLimit) {

  public static HttpConfig from(Settings settings) {
    return new HttpConfig(settings.text("http.host"), settings.integer("http.instances"), settings.integer("http.max-connections"),
      settings.integer("http.body-limit-bytes"), settings.integer("http.client-timeout-ms"), settings.integer("http.client-pool-size"),
      settings.integer("http.idle-timeout-ms"), settings.integer("http.request-timeout-ms"),
      settings.integer("http.admission-initial-limit"), settings.integer("http.admission-min-limit"),
      settings.integer("http.admission-max-limit"), settings.integer("http.admission-target-ms"),
      settings.integer("http.admission-delay-ms"), settings.integer("http.admission-admin-limit"));
  }

  /**
   * How long a client keeps an idle pooled connection to a peer: half the peer's {@code http.idle-timeout-ms}, so that
   * it never sends on a connection the peer is closing as idle (Vert.x's default, 60 s, outlives the peers' 30 s).
   */
  public int clientKeepAliveSeconds() {
    return Math.max(1, idleTimeoutMs / 2_000);
  }

  /** Instances of a verticle that serves the App: {@code http.instances}, or one per event loop when it is 0. */
  public int serverInstances() {
    return instances > 0 ? instances : 2 * Runtime.getRuntime().availableProcessors();
  }
}
