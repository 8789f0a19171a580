package ccp.seguridad.ssf;

import ccp.platform.config.Settings;
import ccp.platform.http.JsonBody;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The members of the stream management and poll requests (SSF 1.0 §8, RFC 8936 §2.4) read and checked: each is what
 * the transmitter stores, or a {@link JsonBody.BadRequest} (a 400) naming the member that is not.
 */
final class PeticionSsf {

  static final int MAX_POLL = 1_000;
  private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
  private static final Pattern JTI = Pattern.compile("[\\x21-\\x7e]{1,256}");
  private static final Pattern TEXTO = Pattern.compile("[^\\p{Cntrl}]{0,500}");
  private static final Pattern CABECERA = Pattern.compile("[^\\p{Cntrl}]{1,4096}");

  private PeticionSsf() {}

  /** The delivery a receiver asked for; none means poll (SSF 1.0 §8.1.1.1). */
  record Entrega(String metodo, String url, String autorizacion) {}

  static Entrega entrega(Object value) {
    if (value == null) return new Entrega(Stream.POLL, null, null);
    if (!(value instanceof JsonObject delivery)) throw new JsonBody.BadRequest("delivery", "must be an object with a method");
    Object method = delivery.getValue("method");
    if (Stream.POLL.equals(method)) {
      if (delivery.size() > 1 && !(delivery.size() == 2 && delivery.containsKey("endpoint_url"))) {
        throw new JsonBody.BadRequest("delivery", "a poll delivery takes only method (the transmitter gives its endpoint_url)");
      }
      return new Entrega(Stream.POLL, null, null);
    }
    if (!Stream.PUSH.equals(method)) {
      throw new JsonBody.BadRequest("delivery.method", "must be " + Stream.PUSH + " (push) or " + Stream.POLL + " (poll)");
    }
    for (String member : delivery.fieldNames()) {
      if (!Set.of("method", "endpoint_url", "authorization_header").contains(member)) {
        throw new JsonBody.BadRequest("delivery." + member, "unknown member (allowed: method, endpoint_url, authorization_header)");
      }
    }
    Object url = delivery.getValue("endpoint_url");
    if (!(url instanceof String text) || text.length() > 2000 || !Settings.isHttpUrl(text)) {
      throw new JsonBody.BadRequest("delivery.endpoint_url", "must be the receiver's http(s) URL");
    }
    Object authorization = delivery.getValue("authorization_header");
    if (authorization != null && !(authorization instanceof String header && CABECERA.matcher(header).matches())) {
      throw new JsonBody.BadRequest("delivery.authorization_header", "must be a header value of at most 4096 printable characters");
    }
    return new Entrega(Stream.PUSH, text, (String) authorization);
  }

  static List<String> solicitados(JsonObject body) {
    Object value = body.getValue("events_requested");
    if (value == null) return TiposEvento.SOPORTADOS;
    if (!(value instanceof JsonArray array) || array.isEmpty() || array.size() > 100) {
      throw new JsonBody.BadRequest("events_requested", "must be an array of 1 to 100 event type URIs");
    }
    List<String> list = new ArrayList<>();
    for (Object item : array) {
      if (!(item instanceof String uri) || uri.isBlank() || uri.length() > 500) {
        throw new JsonBody.BadRequest("events_requested", "every member must be an event type URI");
      }
      if (!list.contains(uri)) list.add(uri);
    }
    return list;
  }

  /** What the transmitter will send: those asked for that it supports, in its own order; unknown ones are ignored. */
  static List<String> entregados(List<String> solicitados) {
    return TiposEvento.SOPORTADOS.stream().filter(solicitados::contains).toList();
  }

  static String descripcion(JsonObject body) {
    return body.getValue("description") == null ? null : texto(body, "description", 0);
  }

  static String texto(JsonObject body, String field, int min) {
    Object value = body.getValue(field);
    if (!(value instanceof String text) || text.length() < min || !TEXTO.matcher(text).matches()) {
      throw new JsonBody.BadRequest(field, "must be a string of " + min + " to 500 printable characters");
    }
    return text;
  }

  static String streamId(String value) {
    if (value == null || !ID.matcher(value).matches()) throw new JsonBody.BadRequest("stream_id", "must be a stream id (32 hex digits)");
    return value;
  }

  static int maxEvents(Object value) {
    if (value == null) return 100;
    if (value instanceof Integer n && n >= 0 && n <= MAX_POLL) return n;
    throw new JsonBody.BadRequest("maxEvents", "must be an integer from 0 to " + MAX_POLL);
  }

  static List<String> jtis(Object value) {
    if (value == null) return List.of();
    if (!(value instanceof JsonArray array) || array.size() > MAX_POLL) {
      throw new JsonBody.BadRequest("ack", "must be an array of at most " + MAX_POLL + " jti");
    }
    List<String> list = new ArrayList<>();
    for (Object item : array) {
      if (!(item instanceof String jti) || !JTI.matcher(jti).matches()) throw new JsonBody.BadRequest("ack", "every member must be a jti");
      list.add(jti);
    }
    return list;
  }

  static Map<String, String> errores(Object value) {
    if (value == null) return Map.of();
    if (!(value instanceof JsonObject errs) || errs.size() > MAX_POLL) {
      throw new JsonBody.BadRequest("setErrs", "must be an object of at most " + MAX_POLL + " jti: {err, description}");
    }
    Map<String, String> map = new LinkedHashMap<>();
    errs.forEach(e -> {
      if (!JTI.matcher(e.getKey()).matches() || !(e.getValue() instanceof JsonObject err) || !(err.getValue("err") instanceof String)) {
        throw new JsonBody.BadRequest("setErrs", "every member must be jti: {\"err\": code, \"description\": text}");
      }
      String texto = Streams.error(err);
      map.put(e.getKey(), texto.length() > 500 ? texto.substring(0, 500) : texto);
    });
    return map;
  }
}
