package ccp.platform.http;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** The project's JSON error body: {@code {"error": code, "message": text, "field": name?}}. */
public final class ApiErrors {

  private ApiErrors() {}

  public static void send(RoutingContext ctx, int status, String code, String message) {
    JsonResponse.send(ctx, status, new JsonObject().put("error", code).put("message", message));
  }

  public static void badField(RoutingContext ctx, String field, String message) {
    JsonResponse.send(ctx, 400, new JsonObject().put("error", "invalid_field").put("field", field).put("message", message));
  }
}
