package ccp.platform.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeoutException;

/**
 * A router with the project's HTTP conventions: bounded bodies (413), a JSON error for every failure (404 and 405
 * included), a {@link JsonBody.BadRequest} thrown by a handler turned into a 400 naming the field, and a connection
 * not free in time (a pool's {@link TimeoutException}) into a 503 the client may retry.
 */
public final class ApiRouter {

  private static final Logger LOG = LoggerFactory.getLogger(ApiRouter.class);

  private ApiRouter() {}

  public static Router create(Vertx vertx, HttpConfig http) {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create(false).setBodyLimit(http.bodyLimitBytes()));
    // No route matched: these never reach a route's failure handler.
    router.errorHandler(404, ctx -> ApiErrors.send(ctx, 404, "not_found", "no resource at " + ctx.request().path()));
    router.errorHandler(405, ctx -> ApiErrors.send(ctx, 405, "method_not_allowed",
      ctx.request().method() + " is not allowed on " + ctx.request().path()));
    router.route().failureHandler(ctx -> {
      Throwable failure = ctx.failure();
      if (failure instanceof JsonBody.BadRequest bad) {
        ApiErrors.badField(ctx, bad.field(), bad.getMessage());
      } else if (failure instanceof TimeoutException) {
        // A database or service connection not free in time: overload, which the client may retry.
        ctx.response().putHeader("Retry-After", "1");
        ApiErrors.send(ctx, 503, "unavailable", "the service is overloaded (" + failure.getMessage() + "); retry");
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
   * Serves {@code router} on {@code port}, refusing (closing at once) the connections beyond this instance's share of
   * {@code http.max-connections}. The process's file descriptors are shared with the Kafka and PostgreSQL clients —
   * and, in the all-in-one, with the embedded broker, which takes its log directory offline for good when it cannot
   * open a file. The count is this verticle's own state, touched only on its event loop.
   */
  public static Future<HttpServer> listen(Vertx vertx, HttpConfig http, Router router, int port, int instances) {
    int share = Math.max(1, http.maxConnections() / instances);
    int[] open = {0};
    return vertx.createHttpServer()
      .connectionHandler(connection -> {
        if (open[0] >= share) {
          connection.close();
          return;
        }
        open[0]++;
        connection.closeHandler(closed -> open[0]--);
      })
      .requestHandler(router)
      .listen(port, http.host());
  }
}
