package ccp.platform.http;

import ccp.platform.db.Unavailable;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.TimeoutHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * A router with the project's HTTP conventions: bounded bodies (413), a JSON error for every failure (404 and 405
 * included), a {@link JsonBody.BadRequest} thrown by a handler turned into a 400 naming the field, and a connection
 * not free in time, a statement past its bound, a database that does not answer ({@link Unavailable}) into a 503 the
 * client may retry.
 * Every request has a bound, {@code http.request-timeout-ms}: one waiting on a dependency that does not answer is
 * answered 503 with {@code Retry-After} when it passes, whatever it waits on — except an event stream ({@link EventStream}).
 */
public final class ApiRouter {

  private static final Logger LOG = LoggerFactory.getLogger(ApiRouter.class);

  private ApiRouter() {}

  public static Router create(Vertx vertx, HttpConfig http) {
    Router router = Router.router(vertx);
    // An event stream (the console's, EventStream) is answered at once and lasts while its client stays: no deadline (the
    // timeout would fail, as unanswered, a request whose answer is flowing, with an error logged per open console).
    var timeout = TimeoutHandler.create(http.requestTimeoutMs(), 503);
    router.route().handler(ctx -> {
      if (EventStream.requested(ctx)) ctx.next();
      else timeout.handle(ctx);
    });
    router.route().handler(BodyHandler.create(false).setBodyLimit(http.bodyLimitBytes()));
    unmatched(router);
    router.route().failureHandler(ctx -> {
      Throwable failure = ctx.failure();
      if (failure instanceof JsonBody.BadRequest bad) {
        ApiErrors.badField(ctx, bad.field(), bad.getMessage());
      } else if (Unavailable.is(failure)) {
        // A database or service that does not answer, or not in time: the client may retry.
        unavailable(ctx, "the service is unavailable (" + failure.getMessage() + "); retry");
      } else if (failure == null && ctx.statusCode() == 503) {
        unavailable(ctx, "no answer within " + http.requestTimeoutMs() + " ms: a dependency is slow or down; retry");
      } else if (ctx.statusCode() == 413) {
        ApiErrors.send(ctx, 413, "body_too_large", "body exceeds " + http.bodyLimitBytes() + " bytes");
      } else if (ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
        String reason = HttpResponseStatus.valueOf(ctx.statusCode()).reasonPhrase();
        ApiErrors.send(ctx, ctx.statusCode(), reason.toLowerCase().replace(' ', '_'), reason + ": " + ctx.request().method() + " " + ctx.request().path());
      } else {
        LOG.error("Unhandled failure on {} {}", ctx.request().method(), ctx.request().path(), failure);
        ApiErrors.send(ctx, 500, "internal_error", "the request could not be completed");
      }
    });
    return router;
  }

  /**
   * A request no route matched, or one the router refuses before any route (a path it cannot decode: 400), is a JSON
   * error too: these never reach a route's failure handler, and the router would otherwise answer in plain text.
   */
  static void unmatched(Router router) {
    router.errorHandler(404, ctx -> ApiErrors.send(ctx, 404, "not_found", "no resource at " + ctx.request().path()));
    router.errorHandler(405, ctx -> ApiErrors.send(ctx, 405, "method_not_allowed",
      ctx.request().method() + " is not allowed on " + ctx.request().path()));
    for (int status : new int[] {400, 401, 403, 406, 413, 414, 415, 431}) {
      String reason = HttpResponseStatus.valueOf(status).reasonPhrase();
      router.errorHandler(status, ctx -> ApiErrors.send(ctx, status, reason.toLowerCase().replace(' ', '_'),
        reason + ": " + ctx.request().method() + " " + ctx.request().path()));
    }
  }

  private static void unavailable(RoutingContext ctx, String message) {
    if (!ctx.response().headWritten()) ctx.response().putHeader("Retry-After", "1");
    ApiErrors.send(ctx, 503, "unavailable", message);
  }

  /**
   * Serves {@code router} on {@code port}, holding at most this instance's share of {@code http.max-connections} (see
   * {@link ConnectionCap}) and closing a connection idle for {@code http.idle-timeout-ms}. The process's file descriptors are shared with the Kafka and PostgreSQL clients —
   * and, in the all-in-one, with the embedded broker, which takes its log directory offline for good when it cannot
   * open a file. A request whose framing is not sound is refused before it is routed ({@link Framing}).
   */
  public static Future<HttpServer> listen(Vertx vertx, HttpConfig http, Router router, int port, int instances) {
    int share = Math.max(1, http.maxConnections() / instances);
    ConnectionCap cap = new ConnectionCap(share);
    // Without h2c, a connection is an HTTP/1.1 connection from its accept: Vert.x otherwise waits for its first bytes
    // (the h2c preface) before it reports it, and a connection that sends nothing would escape the cap.
    HttpServerOptions options = new HttpServerOptions().setHttp2ClearTextEnabled(false)
      .setIdleTimeout(http.idleTimeoutMs()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    return Framing.guard(vertx.createHttpServer(options).connectionHandler(cap::admit), request -> {
        cap.serving(request);
        router.handle(request);
      })
      .listen(port, http.host());
  }
}
