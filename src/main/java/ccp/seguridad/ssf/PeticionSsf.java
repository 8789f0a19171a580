package ccp.seguridad.ssf;

import ccp.platform.config.Settings;
import ccp.platform.http.JsonBody;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The members of the stream management and poll requests (SSF 1.0 §8, RFC 8936 §2.4), read from a body the contract
 * accepted: what is left to check here is what a schema cannot say, each a {@link JsonBody.BadRequest} (a 400) naming
 * the member.
 */
final class PeticionSsf {

  private static final Pattern JTI = Pattern.compile("[\\x21-\\x7e]{1,256}");

  private PeticionSsf() {}

  /** The delivery a receiver asked for; none means poll (SSF 1.0 §8.1.1.1). */
  record Entrega(String metodo, String url, String autorizacion) {}

  static Entrega entrega(JsonObject delivery) {
    if (delivery == null) return new Entrega(Stream.POLL, null, null);
    if (Stream.POLL.equals(delivery.getString("method"))) {
      if (delivery.containsKey("authorization_header")) {
        throw new JsonBody.BadRequest("delivery", "a poll delivery takes only method (the transmitter gives its endpoint_url)");
      }
      return new Entrega(Stream.POLL, null, null);
    }
    String url = delivery.getString("endpoint_url");
    if (url == null || !Settings.isHttpUrl(url)) throw new JsonBody.BadRequest("delivery.endpoint_url", "must be the receiver's http(s) URL");
    return new Entrega(Stream.PUSH, url, delivery.getString("authorization_header"));
  }

  /** The event types asked for, each once; all the supported ones when none were named. */
  static List<String> solicitados(JsonObject body) {
    JsonArray array = body.getJsonArray("events_requested");
    if (array == null) return TiposEvento.SOPORTADOS;
    List<String> list = new ArrayList<>();
    for (Object uri : array) {
      if (!list.contains(uri)) list.add((String) uri);
    }
    return list;
  }

  /** What the transmitter will send: those asked for that it supports, in its own order; unknown ones are ignored. */
  static List<String> entregados(List<String> solicitados) {
    return TiposEvento.SOPORTADOS.stream().filter(solicitados::contains).toList();
  }

  static List<String> jtis(JsonArray ack) {
    return ack == null ? List.of() : ack.stream().map(String.class::cast).toList();
  }

  /** The errors a receiver reports, by jti (a member's name, which a schema of OpenAPI 3.0 cannot bound). */
  static Map<String, String> errores(JsonObject errs) {
    if (errs == null) return Map.of();
    Map<String, String> map = new LinkedHashMap<>();
    errs.forEach(e -> {
      if (!JTI.matcher(e.getKey()).matches()) throw new JsonBody.BadRequest("setErrs", "every member's name must be a jti");
      String texto = Streams.error((JsonObject) e.getValue());
      map.put(e.getKey(), texto.length() > 500 ? texto.substring(0, 500) : texto);
    });
    return map;
  }
}
