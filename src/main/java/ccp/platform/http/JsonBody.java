package ccp.platform.http;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A JSON request body: an App request's, as the contract accepted it ({@link #of}); a role-to-role or console request's
 * (not the App's contract), read strictly here: an object, only known fields, each of the expected type and shape.
 */
public final class JsonBody {

  private static final Pattern ACTOR = Pattern.compile("[A-Za-z0-9_.@-]{1,128}");
  private static final String ACTOR_SHAPE = "1 to 128 letters, digits or _.@-";

  private JsonBody() {}

  /** The body of an App request, as the contract accepted it ({@link ValidacionContrato}, before every App handler). */
  public static JsonObject of(RoutingContext ctx) {
    return ValidacionContrato.cuerpo(ctx);
  }

  /** @throws BadRequest when the body is absent, not a JSON object, or has a field not in {@code allowed} */
  public static JsonObject object(RoutingContext ctx, Set<String> allowed) {
    String text = ctx.body().asString();
    if (text == null || text.isBlank()) throw new BadRequest("body", "a JSON object body is required");
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new BadRequest("body", "body is not a JSON object");
    }
    for (String field : json.fieldNames()) {
      if (!allowed.contains(field)) throw new BadRequest(field, "unknown field (allowed: " + allowed + ")");
    }
    return json;
  }

  /** An actor id from a path or query ({@code field} names it in the 400). */
  public static String actorId(String value, String field) {
    if (value == null || !ACTOR.matcher(value).matches()) throw new BadRequest(field, "must be " + ACTOR_SHAPE);
    return value;
  }

  /** A non-empty array of at most {@code max} actor ids. */
  public static List<String> actorIds(JsonObject json, String field, int max) {
    Object value = json.getValue(field);
    if (!(value instanceof JsonArray array) || array.isEmpty() || array.size() > max) {
      throw new BadRequest(field, "must be an array of 1 to " + max + " actor ids");
    }
    List<String> ids = new ArrayList<>(array.size());
    for (Object id : array) {
      if (!(id instanceof String text) || !ACTOR.matcher(text).matches()) throw new BadRequest(field, "every id must be " + ACTOR_SHAPE);
      ids.add(text);
    }
    return ids;
  }

  public static String text(JsonObject json, String field, Pattern shape, String expected) {
    Object value = json.getValue(field);
    if (value == null) throw new BadRequest(field, "is required (" + expected + ")");
    if (!(value instanceof String text)) throw new BadRequest(field, "must be a string (" + expected + ")");
    if (!shape.matcher(text).matches()) throw new BadRequest(field, "must be " + expected);
    return text;
  }

  /** A 400 that names the offending field; the API router turns it into the JSON error. */
  public static final class BadRequest extends RuntimeException {
    private final String field;

    public BadRequest(String field, String message) {
      super(message, null, false, false);
      this.field = field;
    }

    public String field() {
      return field;
    }
  }
}
