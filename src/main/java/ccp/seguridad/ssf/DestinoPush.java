package ccp.seguridad.ssf;

import ccp.platform.http.JsonBody;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;

/**
 * Where a receiver may ask the transmitter to push: seguridad sits inside the system's network, so a stream must not
 * make it POST to the Gestor, Pedidos or the database's neighbours. Unless {@code ssf.push-private-allowed} (a laptop,
 * the tests), an endpoint must be https and its host must resolve only to public addresses — no loopback, private,
 * link-local, carrier-grade NAT, unique-local or multicast one. Checked when the stream is created; the egress
 * NetworkPolicy of seguridad is the second fence, for a name that later resolves elsewhere.
 */
final class DestinoPush {

  private static final String CAMPO = "delivery.endpoint_url";

  private final Vertx vertx;
  private final boolean privadoPermitido;

  DestinoPush(Vertx vertx, boolean privadoPermitido) {
    this.vertx = vertx;
    this.privadoPermitido = privadoPermitido;
  }

  /** Succeeds for no endpoint (poll) or an acceptable one; else fails with the 400 that names why. */
  Future<Void> comprobar(String url) {
    if (url == null || privadoPermitido) return Future.succeededFuture();
    URI uri = URI.create(url);
    if (!"https".equals(uri.getScheme())) return Future.failedFuture(new JsonBody.BadRequest(CAMPO, "must be an https URL"));
    String host = uri.getHost();
    // Name resolution blocks: off the event loop.
    return vertx.executeBlocking(() -> InetAddress.getAllByName(host), false)
      .recover(err -> Future.failedFuture(new JsonBody.BadRequest(CAMPO, "its host " + host + " does not resolve")))
      .compose(direcciones -> {
        for (InetAddress direccion : direcciones) {
          if (privada(direccion)) {
            return Future.failedFuture(new JsonBody.BadRequest(CAMPO, "must reach a public address: " + host + " is "
              + direccion.getHostAddress()));
          }
        }
        return Future.succeededFuture();
      });
  }

  static boolean privada(InetAddress a) {
    if (a.isLoopbackAddress() || a.isAnyLocalAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress()) {
      return true;
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) return (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
    return a instanceof Inet6Address && (b[0] & 0xfe) == 0xfc;
  }
}
