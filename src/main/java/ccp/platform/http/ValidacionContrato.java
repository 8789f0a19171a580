package ccp.platform.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.pointer.JsonPointer;
import io.vertx.ext.web.RoutingContext;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.OutputErrorType;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.contract.RequestBody;
import io.vertx.openapi.validation.RequestUtils;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every App request checked against the contract before its handler: the path, query and header parameters and the
 * JSON body of its operation, each with the contract's schema. A request the contract refuses is a 400 naming the
 * field ({@link JsonBody.BadRequest}): a parameter by its name, a body member by its place ({@code lineas[0].cantidad}),
 * the body itself as {@code body}. The body it read is the handler's ({@link JsonBody#of}). A request of no operation
 * of the contract passes (the router answers it).
 *
 * <p>vertx-openapi's {@code RequestValidator} is not used: it validates on a worker thread (an ordered
 * {@code executeBlocking} per request), it reads query values decoded twice (a {@code %25} fails), and its errors name
 * the parameter only in their text. This runs the contract's own schema validators on the event loop and names the
 * field from the error's instance location.
 */
public final class ValidacionContrato implements Handler<RoutingContext> {

  private static final String CUERPO = "ccp.contrato.cuerpo";

  private final OpenAPIContract contract;
  private final Map<Object, Validator> validators = new IdentityHashMap<>();

  public ValidacionContrato(OpenAPIContract contract) {
    this.contract = contract;
    for (Operation operation : contract.operations()) {
      for (Parameter parameter : operation.getParameters()) {
        switch (parameter.getSchemaType()) {
          case ARRAY, OBJECT -> throw new IllegalArgumentException("parameter " + parameter.getName() + " of "
            + operation.getOperationId() + " is an " + parameter.getSchemaType() + ": only single values are read");
          default -> validators.put(parameter, validator(parameter.getSchema()));
        }
      }
      MediaType json = json(operation.getRequestBody());
      if (json != null) validators.put(json, validator(json.getSchema()));
    }
  }

  /** The JSON body the contract accepted for this request; empty when an optional body was not sent. */
  static JsonObject cuerpo(RoutingContext ctx) {
    JsonObject body = ctx.get(CUERPO);
    if (body == null) throw new IllegalStateException("no body validated against the contract on " + ctx.request().path());
    return body;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String path = ruta(ctx);
    Operation operation = contract.findOperation(path, ctx.request().method());
    if (operation != null) {
      for (Parameter parameter : operation.getParameters()) parametro(ctx, path, operation, parameter);
      MediaType json = json(operation.getRequestBody());
      if (json != null) cuerpo(ctx, operation.getRequestBody(), json);
    }
    ctx.next();
  }

  /**
   * The path as the router matches it: its dot segments resolved, its escaped unreserved characters decoded
   * ({@code /v1/%61lertas} is {@code /v1/alertas}), without a closing slash.
   */
  private static String ruta(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private void parametro(RoutingContext ctx, String path, Operation operation, Parameter parameter) {
    String name = parameter.getName();
    String raw = switch (parameter.getIn()) {
      case PATH -> segmento(path, RequestUtils.findPathSegment(operation.getAbsoluteOpenAPIPath(), name), name);
      case QUERY -> ctx.queryParams().get(name);
      case HEADER -> ctx.request().getHeader(name);
      case COOKIE -> ctx.request().getCookie(name) == null ? null : ctx.request().getCookie(name).getValue();
    };
    if (raw == null) {
      if (parameter.isRequired()) throw new JsonBody.BadRequest(name, "is required");
      return;
    }
    OutputUnit result = validators.get(parameter).validate(valor(parameter, raw));
    if (!Boolean.TRUE.equals(result.getValid())) throw new JsonBody.BadRequest(name, motivo(result, error(result)));
  }

  private void cuerpo(RoutingContext ctx, RequestBody requestBody, MediaType json) {
    Buffer raw = ctx.body().buffer();
    if (raw == null || raw.length() == 0) {
      if (requestBody.isRequired()) throw new JsonBody.BadRequest("body", "a JSON object body is required");
      ctx.put(CUERPO, new JsonObject());
      return;
    }
    Object body;
    try {
      body = Json.decodeValue(raw);
    } catch (DecodeException e) {
      throw new JsonBody.BadRequest("body", "body is not JSON");
    }
    OutputUnit result = validators.get(json).validate(body);
    if (!Boolean.TRUE.equals(result.getValid())) {
      OutputUnit error = error(result);
      String[] place = lugar(error, json.getSchema(), body);
      throw new JsonBody.BadRequest(place[0], place[1] != null ? place[1] : motivo(result, error));
    }
    if (!(body instanceof JsonObject object)) throw new JsonBody.BadRequest("body", "body is not a JSON object");
    ctx.put(CUERPO, object);
  }

  /**
   * A parameter's text as the JSON value its schema expects; a text that is not one stays text, which the schema
   * refuses. An integer is written as one ({@code 5}, not {@code 5.0}), as the handlers parse it.
   */
  private static Object valor(Parameter parameter, String raw) {
    try {
      return switch (parameter.getSchemaType()) {
        case INTEGER -> Long.parseLong(raw);
        case NUMBER -> Double.parseDouble(raw);
        case BOOLEAN -> "true".equals(raw) ? Boolean.TRUE : "false".equals(raw) ? Boolean.FALSE : raw;
        default -> raw;
      };
    } catch (NumberFormatException e) {
      return raw;
    }
  }

  /** The {@code index}-th segment of {@code path} (from 1), percent-decoded. */
  private static String segmento(String path, int index, String name) {
    String[] segments = path.substring(1).split("/", -1);
    if (index < 1 || index > segments.length) return null;
    try {
      return decodificar(segments[index - 1]);
    } catch (IllegalArgumentException e) {
      throw new JsonBody.BadRequest(name, "is not percent-encoded properly");
    }
  }

  /** Percent-decoding as in a URI path, where {@code +} stands for itself (not a space, as in a form). */
  private static String decodificar(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /**
   * The error that names the field: the deepest (of those as deep, the last: the validator reports a member's own rule
   * after the member), a missing member's counted as its own place. The schema validator
   * also reports, at a declared member that fails, an {@code additionalProperties} error beside the member's own: that
   * one is left out when another error is at the same place.
   */
  private static OutputUnit error(OutputUnit result) {
    List<OutputUnit> errors = result.getErrors() == null || result.getErrors().isEmpty() ? List.of(result) : result.getErrors();
    OutputUnit chosen = null;
    int depth = -1;
    for (OutputUnit error : errors) {
      String at = error.getInstanceLocation();
      if (palabra(error).equals("additionalProperties")
        && errors.stream().anyMatch(other -> other != error && at.equals(other.getInstanceLocation()) && !palabra(other).equals("additionalProperties"))) {
        continue;
      }
      int d = segmentos(at).size() + (error.getErrorType() == OutputErrorType.MISSING_VALUE && palabra(error).equals("required") ? 1 : 0);
      if (d >= depth) {
        chosen = error;
        depth = d;
      }
    }
    return chosen;
  }

  /**
   * The field and, where the schema says it better than the validator, the message: a missing member is named with
   * its place ({@code required}), an unknown member with the members allowed ({@code additionalProperties}).
   */
  private static String[] lugar(OutputUnit error, JsonSchema schema, Object body) {
    List<String> at = segmentos(error.getInstanceLocation());
    String keyword = palabra(error);
    if (keyword.equals("required") || keyword.equals("additionalProperties")) {
      Object rule = regla(schema, error.getKeywordLocation());
      if (keyword.equals("required") && rule instanceof JsonArray required && JsonPointer.from(puntero(at)).queryJson(body) instanceof JsonObject object) {
        for (Object member : required) {
          if (!object.containsKey((String) member)) return new String[] {campo(body, append(at, (String) member)), "is required"};
        }
      }
      if (keyword.equals("additionalProperties") && regla(schema, padre(error.getKeywordLocation()) + "/properties") instanceof JsonObject declared) {
        return new String[] {campo(body, at), "unknown field (allowed: " + new TreeSet<>(declared.fieldNames()) + ")"};
      }
    }
    return new String[] {campo(body, at), null};
  }

  private static String motivo(OutputUnit result, OutputUnit error) {
    return error != null && error.getError() != null ? error.getError() : String.valueOf(result.getError());
  }

  /** {@code lineas[0].producto} for the instance location {@code #/lineas/0/producto}; {@code body} for the root. */
  private static String campo(Object body, List<String> at) {
    if (at.isEmpty()) return "body";
    StringBuilder field = new StringBuilder();
    Object value = body;
    for (String segment : at) {
      if (value instanceof JsonArray array) {
        field.append('[').append(segment).append(']');
        value = segment.matches("\\d{1,9}") && Integer.parseInt(segment) < array.size() ? array.getValue(Integer.parseInt(segment)) : null;
      } else {
        if (!field.isEmpty()) field.append('.');
        field.append(segment);
        value = value instanceof JsonObject object ? object.getValue(segment) : null;
      }
    }
    return field.toString();
  }

  /** The schema's value at a keyword location ({@code #/properties/lineas/items/required}); null when absent. */
  private static Object regla(JsonSchema schema, String keywordLocation) {
    List<String> path = segmentos(keywordLocation);
    if (path.isEmpty()) return null;
    Object first = schema.get(path.get(0));
    if (path.size() == 1) return first;
    return first instanceof JsonObject || first instanceof JsonArray
      ? JsonPointer.from(puntero(path.subList(1, path.size()))).queryJson(first) : null;
  }

  private static String palabra(OutputUnit error) {
    String location = error.getKeywordLocation() == null ? "" : error.getKeywordLocation();
    return location.substring(location.lastIndexOf('/') + 1);
  }

  private static String padre(String location) {
    return location.substring(0, location.lastIndexOf('/'));
  }

  /**
   * The segments of a location the schema validator reports: a URI fragment ({@code #/lineas/0}) whose member names
   * are escaped as in a JSON pointer ({@code ~1}, {@code ~0}) and then percent-encoded ({@code precio%20unitario}).
   */
  private static List<String> segmentos(String pointer) {
    List<String> segments = new ArrayList<>();
    if (pointer == null) return segments;
    String path = pointer.startsWith("#") ? pointer.substring(1) : pointer;
    if (path.isEmpty()) return segments;
    for (String segment : path.substring(1).split("/", -1)) {
      String member = segment.replace("~1", "/").replace("~0", "~");
      try {
        segments.add(decodificar(member));
      } catch (IllegalArgumentException e) {
        segments.add(member);
      }
    }
    return segments;
  }

  private static String puntero(List<String> segments) {
    StringBuilder pointer = new StringBuilder();
    for (String segment : segments) pointer.append('/').append(segment.replace("~", "~0").replace("/", "~1"));
    return pointer.toString();
  }

  private static List<String> append(List<String> at, String member) {
    List<String> more = new ArrayList<>(at);
    more.add(member);
    return more;
  }

  private static MediaType json(RequestBody body) {
    return body == null ? null : body.getContent().get("application/json");
  }

  /** The schema's validator, with OpenAPI 3.0's {@code nullable} said as JSON Schema (draft 4) says it. */
  private Validator validator(JsonSchema schema) {
    JsonObject json = new JsonObject();
    // A copy: the contract's own schema stays as it is written.
    for (String key : schema.fieldNames()) json.put(key, copia(schema.get(key)));
    nulables(json);
    return contract.getSchemaRepository().validator(JsonSchema.of(json));
  }

  private static Object copia(Object value) {
    return value instanceof JsonObject object ? object.copy() : value instanceof JsonArray array ? array.copy() : value;
  }

  /**
   * OpenAPI 3.0 writes "this may also be null" as {@code nullable: true} beside the type; the draft-4 validator
   * ignores the word and refuses null. Each such {@code type: t} becomes {@code type: [t, "null"]}.
   */
  private static void nulables(Object node) {
    if (node instanceof JsonObject object) {
      if (Boolean.TRUE.equals(object.getValue("nullable")) && object.getValue("type") instanceof String type) {
        object.put("type", new JsonArray().add(type).add("null"));
      }
      object.forEach(entry -> nulables(entry.getValue()));
    } else if (node instanceof JsonArray array) {
      array.forEach(ValidacionContrato::nulables);
    }
  }
}
