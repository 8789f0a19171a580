package ccp.platform.kafka;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.UUID;

/**
 * Every message of the project, in CloudEvents structured JSON ({@code specversion} 1.0): {@code id}, {@code type},
 * {@code source}, {@code time}, {@code subject} and a JSON {@code data} that carries the ASR timestamps it needs.
 */
public record Envelope(String id, String type, String source, Instant time, String subject, JsonObject data) {

  public static final String SPEC_VERSION = "1.0";

  public static Envelope create(String type, String source, String subject, JsonObject data) {
    return new Envelope(UUID.randomUUID().toString(), type, source, Instant.now(), subject, data);
  }

  public String encode() {
    return new JsonObject()
      .put("specversion", SPEC_VERSION)
      .put("id", id)
      .put("type", type)
      .put("source", source)
      .put("time", time.toString())
      .put("subject", subject)
      .put("datacontenttype", "application/json")
      .put("data", data)
      .encode();
  }

  /** @throws PoisonMessageException when the text is not an envelope of this project */
  public static Envelope parse(String text) {
    if (text == null) throw new PoisonMessageException("empty record value");
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new PoisonMessageException("value is not a JSON object");
    }
    if (!SPEC_VERSION.equals(json.getValue("specversion"))) {
      throw new PoisonMessageException("specversion must be \"1.0\"");
    }
    Object data = json.getValue("data");
    if (!(data instanceof JsonObject)) throw new PoisonMessageException("data must be a JSON object");
    return new Envelope(
      requiredText(json, "id"),
      requiredText(json, "type"),
      requiredText(json, "source"),
      instant(json, "time"),
      requiredText(json, "subject"),
      (JsonObject) data);
  }

  /** The {@code data} field {@code name} as an instant. */
  public Instant instantOf(String name) {
    return instant(data, name);
  }

  /** The {@code data} field {@code name} as non-blank text. */
  public String textOf(String name) {
    return requiredText(data, name);
  }

  private static String requiredText(JsonObject json, String name) {
    Object value = json.getValue(name);
    if (!(value instanceof String text) || text.isBlank()) {
      throw new PoisonMessageException("'" + name + "' must be a non-empty string");
    }
    return text;
  }

  private static Instant instant(JsonObject json, String name) {
    String text = requiredText(json, name);
    try {
      return IsoInstant.parse(text);
    } catch (DateTimeException e) {
      throw new PoisonMessageException("'" + name + "' must be an ISO-8601 instant");
    }
  }
}
