package ccp.seguridad;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A peer in front of a real role: requests whose path ends with {@code averiada} are answered 500, or never, while the
 * test says so; every other request (and those, once healed) passes through to the real role unchanged.
 */
final class PeerAveriado implements AutoCloseable {

  enum Modo { QUINIENTOS, MUDO, SANO }

  private final AtomicReference<Modo> modo;
  private final AtomicInteger averiadas = new AtomicInteger();
  private final AtomicInteger enVuelo = new AtomicInteger();
  private final AtomicInteger maxEnVuelo = new AtomicInteger();
  private final String averiada;
  private final URI destino;
  private final HttpClient client;
  private final HttpServer server;

  private PeerAveriado(Vertx vertx, String destino, String averiada, Modo modo) throws Exception {
    this.modo = new AtomicReference<>(modo);
    this.averiada = averiada;
    this.destino = URI.create(destino);
    this.client = vertx.createHttpClient();
    this.server = vertx.createHttpServer().requestHandler(this::atender);
    server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static PeerAveriado delante(Vertx vertx, String destino, String averiada, Modo modo) throws Exception {
    return new PeerAveriado(vertx, destino, averiada, modo);
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  void sanar() {
    modo.set(Modo.SANO);
  }

  /** The requests answered 500 or left unanswered. */
  int averiadas() {
    return averiadas.get();
  }

  /** The most requests left unanswered at once (MUDO): each held until its caller gives up and closes it. */
  int maxEnVuelo() {
    return maxEnVuelo.get();
  }

  private void atender(HttpServerRequest req) {
    Modo ahora = modo.get();
    if (req.path().endsWith(averiada) && ahora != Modo.SANO) {
      averiadas.incrementAndGet();
      if (ahora == Modo.QUINIENTOS) {
        req.response().setStatusCode(500).end("{\"error\":\"internal\",\"message\":\"averiado\"}");
      } else {
        maxEnVuelo.accumulateAndGet(enVuelo.incrementAndGet(), Math::max);
        req.response().closeHandler(closed -> enVuelo.decrementAndGet());
      }
      return;
    }
    req.body().compose(body -> client.request(req.method(), destino.getPort(), destino.getHost(), req.uri())
        .compose(out -> {
          copiar(req, out.headers(), HttpHeaders.AUTHORIZATION);
          copiar(req, out.headers(), HttpHeaders.CONTENT_TYPE);
          return out.send(body);
        })
        .compose(answer -> answer.body().compose(bytes -> {
          String type = answer.getHeader(HttpHeaders.CONTENT_TYPE);
          if (type != null) req.response().putHeader(HttpHeaders.CONTENT_TYPE, type);
          return req.response().setStatusCode(answer.statusCode()).end(bytes);
        })))
      .onFailure(err -> req.response().setStatusCode(502).end());
  }

  private static void copiar(HttpServerRequest req, MultiMap to, CharSequence name) {
    String value = req.getHeader(name);
    if (value != null) to.set(name, value);
  }

  @Override
  public void close() throws Exception {
    Future.join(server.close(), client.close()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
