package ccp.platform.http;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Ends a request with a JSON body; a request already answered (e.g. by a timeout) is left as it is. */
public final class JsonResponse {

  private JsonResponse() {}

  public static void ok(RoutingContext ctx, JsonObject body) {
    send(ctx, 200, body);
  }

  public static void send(RoutingContext ctx, int status, JsonObject body) {
    if (ctx.response().ended()) return;
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
  }
}
