package ccp.seguridad.ssf;

import ccp.platform.http.Jose;
import ccp.platform.http.Jwks;
import ccp.platform.http.KeySetRereads;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The identity provider's signing keys, read from its JWK Set, and the signature check of its SETs. A SET signed by a
 * key not yet known reads the set again at once (a rotation), within the bound of {@link KeySetRereads}: while it
 * holds, the SET fails with {@link KeySetRereads.Deferred}, answered 503 with {@code Retry-After}, never a final 400.
 * The set is also read again once it is {@link #VIGENCIA_MS} old, so a key the provider withdrew stops being trusted.
 * Confined to the verticle that serves the receiver: no lock.
 */
public final class ClavesEmisor {

  private static final Logger LOG = LoggerFactory.getLogger(ClavesEmisor.class);
  private static final long RELECTURA_MS = 30_000;
  private static final long VIGENCIA_MS = 600_000;

  private final WebClient client;
  private final String url;
  private final long timeoutMs;
  private Jose.KeySet conjunto;
  private long leidasEn;
  private final KeySetRereads relecturas = new KeySetRereads();

  public ClavesEmisor(Vertx vertx, String url, long timeoutMs) {
    this.client = WebClient.create(vertx);
    this.url = url;
    this.timeoutMs = timeoutMs;
  }

  /** The verified claims of {@code token}; fails with {@link RechazoSet} when its key or signature is not the provider's. */
  public Future<JsonObject> verificar(String token) {
    long edad = System.currentTimeMillis() - leidasEn;
    Future<Void> claves;
    if (conjunto == null) {
      claves = edad < RELECTURA_MS ? Future.failedFuture("the provider's keys could not be read; retry later") : leer();
    } else {
      claves = edad < VIGENCIA_MS ? Future.succeededFuture() : leer().recover(err -> Future.succeededFuture());
    }
    return claves.compose(x -> decodificar(token)).recover(err -> {
      if (!(err instanceof Jose.UnknownKey)) return Future.failedFuture(rechazo(err));
      return relecturas.reread(this::leer).compose(x -> decodificar(token)).recover(again -> Future.failedFuture(rechazo(again)));
    });
  }

  public void close() {
    client.close();
  }

  private Future<JsonObject> decodificar(String token) {
    try {
      return Future.succeededFuture(conjunto.verify(token));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private Future<Void> leer() {
    leidasEn = System.currentTimeMillis();
    return client.getAbs(url).timeout(timeoutMs).send().compose(response -> {
      if (response.statusCode() != 200) return Future.failedFuture("the provider's JWK Set at " + url + " answered " + response.statusCode());
      List<JsonObject> keys = Jwks.signingKeys(Jwks.parse(response.bodyAsString(), "the JWK Set at " + url), "the JWK Set at " + url);
      conjunto = Jose.KeySet.of(keys);
      LOG.info("Shared Signals receiver: {} key(s) from {}", keys.size(), url);
      return Future.<Void>succeededFuture();
    }).onFailure(err -> LOG.warn("Shared Signals receiver: the provider's keys could not be read: {}", err.getMessage()));
  }

  private static Throwable rechazo(Throwable err) {
    if (err instanceof RechazoSet) return err;
    if (err instanceof Jose.UnknownKey) return new RechazoSet("invalid_key", "the SET is signed by a key the provider does not publish");
    // RFC 8935 §2.4's invalid_key ("one or more keys used to sign the SET is invalid"), as the OpenID SSF conformance
    // suite expects for a tampered signature as for an unknown key.
    if (err instanceof Jose.BadSignature) return new RechazoSet("invalid_key", "the SET's signature does not verify with the provider's key");
    if (err instanceof Jose.Malformed) {
      return new RechazoSet("invalid_request", "not a signed JWT: " + err.getMessage());
    }
    // The keys could not be read: not the SET's fault; the transmitter retries a 5xx.
    return err;
  }
}
