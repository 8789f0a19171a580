package ccp.platform.http;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How a request's body is framed (RFC 9112 §6), checked at every door before anything routes it, so that a proxy in
 * front and this server can never disagree on where a request ends (request smuggling). A body is framed by
 * {@code Content-Length} alone:
 * <ul>
 *   <li>a {@code Transfer-Encoding} other than a single {@code chunked} (an unknown coding, {@code xchunked}, or
 *   {@code chunked} not last): 501 {@code unsupported_transfer_coding};</li>
 *   <li>{@code Transfer-Encoding: chunked}: 400 {@code ambiguous_framing}. Netty's HTTP/1.1 decoder drops a
 *   {@code Content-Length} sent beside it (and frames by the chunks) before any handler sees the request, so a request
 *   carrying both cannot be told from one carrying the chunks alone: both are refused. Every client of these doors sends
 *   a {@code Content-Length};</li>
 *   <li>a request the decoder cannot read (two different {@code Content-Length}s, a malformed header): 400
 *   {@code bad_request}; a request line or headers over the decoder's bounds: 414 or 431.</li>
 * </ul>
 * Each refusal is a JSON error, and the connection is closed once it is written: bytes that followed on it (a smuggled
 * second request) are never served, nor is a request already read behind the refused one. The connections refused
 * are this server's own state, touched on its event loop only.
 */
public final class Framing {

  private final Set<HttpConnection> refused = new HashSet<>();

  private Framing() {}

  /** {@code server} answering with {@code handler} the requests whose framing is sound; every other one refused. */
  public static HttpServer guard(HttpServer server, Handler<HttpServerRequest> handler) {
    Framing framing = new Framing();
    return server.invalidRequestHandler(framing::undecodable).requestHandler(request -> {
      if (framing.sound(request)) handler.handle(request);
    });
  }

  private boolean sound(HttpServerRequest request) {
    if (refused.contains(request.connection())) {
      request.connection().close();
      return false;
    }
    List<String> codings = codings(request);
    if (codings.isEmpty()) return true;
    if (!codings.equals(List.of("chunked"))) {
      refuse(request, 501, "unsupported_transfer_coding", "Transfer-Encoding " + codings
        + " is not supported: send the body with a Content-Length alone");
    } else {
      refuse(request, 400, "ambiguous_framing", "a body framed by Transfer-Encoding is refused (with a Content-Length beside"
        + " it, it is the shape of request smuggling): send it with a Content-Length alone");
    }
    return false;
  }

  private static List<String> codings(HttpServerRequest request) {
    List<String> codings = new ArrayList<>();
    for (String value : request.headers().getAll("Transfer-Encoding")) {
      for (String coding : value.split(",", -1)) codings.add(coding.trim().toLowerCase(Locale.ROOT));
    }
    return codings;
  }

  private void undecodable(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    if (cause instanceof TooLongHttpLineException) {
      refuse(request, 414, "uri_too_long", "the request line is too long: " + cause.getMessage());
    } else if (cause instanceof TooLongHttpHeaderException) {
      refuse(request, 431, "headers_too_large", "the request's headers are too large: " + cause.getMessage());
    } else {
      refuse(request, 400, "bad_request", "the request is not valid HTTP/1.1"
        + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()));
    }
  }

  private void refuse(HttpServerRequest request, int status, String error, String message) {
    HttpConnection connection = request.connection();
    refused.add(connection);
    request.response().setStatusCode(status).putHeader("Content-Type", "application/json").putHeader("Connection", "close")
      .end(new JsonObject().put("error", error).put("message", message).encode())
      .onComplete(written -> connection.close().onComplete(closed -> refused.remove(connection)));
  }
}
