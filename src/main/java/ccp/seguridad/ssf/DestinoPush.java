package ccp.seguridad.ssf;

import ccp.platform.http.JsonBody;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * Where a receiver may ask the transmitter to push: seguridad sits inside the system's network, so a stream must not
 * make it POST to the Gestor, Pedidos, the cloud's metadata service or any pod. Unless {@code ssf.push-private-allowed}
 * (a laptop, the tests), an endpoint must be https and its host must resolve only to public addresses: none that
 * {@link DireccionesInternas} finds internal, in whatever IPv6 form it is written, nor in the cluster's ranges
 * ({@code ssf.push-denied-cidrs}); an address in {@code ssf.push-allowed-cidrs} (an operator's in-cluster receiver) is
 * let through. Checked when the stream is created and again before every connection, which goes to the address just
 * checked (the Host header and TLS server name stay the URL's): a name that later resolves inside (DNS rebinding) is
 * refused at connect time, not connected to.
 */
final class DestinoPush {

  static final String CAMPO = "delivery.endpoint_url";

  /** A push endpoint that failed the check, with why. */
  static final class Rechazado extends RuntimeException {
    Rechazado(String motivo) {
      super(motivo, null, false, false);
    }
  }

  private final Vertx vertx;
  private final boolean privadoPermitido;
  private final List<Rango> denegados;
  private final List<Rango> permitidos;
  /** Name resolution blocks: on a pool of its own, so a slow resolver holds up no one else's work. */
  private final WorkerExecutor resolutores;

  DestinoPush(Vertx vertx, SsfConfig.Destinos config) {
    this.vertx = vertx;
    this.privadoPermitido = config.privadoPermitido();
    this.denegados = config.denegados();
    this.permitidos = config.permitidos();
    this.resolutores = vertx.createSharedWorkerExecutor("ssf-resolver", 4);
  }

  void close() {
    resolutores.close();
  }

  /** At creation: succeeds for no endpoint (poll) or an acceptable one; else fails with the 400 that names why. */
  Future<Void> comprobar(String url) {
    if (url == null) return Future.succeededFuture();
    URI uri = URI.create(url);
    if (uri.getPort() == 0 || uri.getPort() > 65535) {
      return Future.failedFuture(new JsonBody.BadRequest(CAMPO, "port " + uri.getPort() + " is out of range (1-65535)"));
    }
    if (privadoPermitido) return Future.succeededFuture();
    if (!"https".equals(uri.getScheme())) return Future.failedFuture(new JsonBody.BadRequest(CAMPO, "must be an https URL"));
    return resolver(uri).<Void>mapEmpty()
      .recover(err -> Future.failedFuture(new JsonBody.BadRequest(CAMPO, err.getMessage())));
  }

  /**
   * At connect time: the address to connect to for {@code url}, resolved now and checked; empty when private
   * addresses are allowed (the client resolves the name itself). Fails with {@link Rechazado} naming the address.
   */
  Future<Optional<SocketAddress>> conectarA(String url) {
    if (privadoPermitido) return Future.succeededFuture(Optional.empty());
    URI uri = URI.create(url);
    if (!"https".equals(uri.getScheme())) return Future.failedFuture(new Rechazado("the endpoint is not https"));
    return resolver(uri).map(direccion -> Optional.of(SocketAddress.inetSocketAddress(
      new InetSocketAddress(direccion, uri.getPort() == -1 ? 443 : uri.getPort()))));
  }

  /** The first address of the host, once every address it resolves to has passed; else why not. */
  private Future<InetAddress> resolver(URI uri) {
    String host = uri.getHost();
    if (host == null) return Future.failedFuture(new Rechazado("the URL has no host"));
    return resolutores.executeBlocking(() -> InetAddress.getAllByName(host), false)
      .recover(err -> Future.failedFuture(new Rechazado("its host " + host + " does not resolve")))
      .compose(direcciones -> {
        for (InetAddress direccion : direcciones) {
          Optional<String> motivo = motivo(direccion);
          if (motivo.isPresent()) return Future.failedFuture(new Rechazado("must reach a public address: " + host + " resolves to " + motivo.get()));
        }
        return Future.succeededFuture(direcciones[0]);
      });
  }

  /** Why a push must not reach {@code direccion}; empty when it may. */
  Optional<String> motivo(InetAddress direccion) {
    byte[] bytes = direccion.getAddress();
    Optional<byte[]> v4 = DireccionesInternas.ipv4Incrustada(bytes);
    for (Rango r : permitidos) {
      if (r.contiene(bytes) || v4.isPresent() && r.contiene(v4.get())) return Optional.empty();
    }
    for (Rango r : denegados) {
      if (r.contiene(bytes) || v4.isPresent() && r.contiene(v4.get())) {
        return Optional.of(direccion.getHostAddress() + ", in the cluster's range " + r);
      }
    }
    return DireccionesInternas.interna(direccion);
  }
}
