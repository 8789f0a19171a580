package ccp.k8s;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A custom resource checked against its CRD's structural schema, for the kinds with no Java model on Maven Central
 * (CloudNativePG's). The schema is the {@code openAPIV3Schema} of the CRD's served version, copied into
 * {@code src/test/resources/crd/} with the commit it comes from and without its descriptions. What the API server
 * would do with each field: a field the schema does not name is pruned (here: a finding), unless the schema preserves
 * unknown fields; a value of another type, or outside an enum, is refused; a required field must be present.
 */
final class CrdSchema {

  private final JsonObject schema;
  final String source;

  private CrdSchema(JsonObject crd) {
    this.schema = crd.getJsonObject("openAPIV3Schema");
    this.source = crd.getString("source");
  }

  static CrdSchema load(String resource) throws IOException {
    try (InputStream in = CrdSchema.class.getResourceAsStream("/crd/" + resource)) {
      if (in == null) throw new IOException("no CRD schema crd/" + resource + " on the test class path");
      return new CrdSchema(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    }
  }

  /** What the schema refuses or would prune in {@code document}; its metadata is the API server's, checked apart. */
  List<String> check(Map<String, Object> document) {
    List<String> findings = new ArrayList<>();
    JsonObject properties = schema.getJsonObject("properties");
    for (Map.Entry<String, Object> field : document.entrySet()) {
      if (List.of("apiVersion", "kind", "metadata").contains(field.getKey())) continue;
      JsonObject of = properties.getJsonObject(field.getKey());
      if (of == null) findings.add("/" + field.getKey() + ": not a field of the schema");
      else walk(field.getValue(), of, "/" + field.getKey(), findings);
    }
    return findings;
  }

  private static void walk(Object node, JsonObject schema, String path, List<String> findings) {
    if (node == null) return;
    if (schema.getBoolean("x-kubernetes-int-or-string", false)) {
      if (!(node instanceof Integer || node instanceof Long || node instanceof String)) findings.add(path + ": not an integer or a string");
      return;
    }
    JsonArray allowed = schema.getJsonArray("enum");
    if (allowed != null && !allowed.contains(node)) findings.add(path + ": " + node + " is not one of " + allowed);
    String type = schema.getString("type");
    if (type == null) return;
    switch (type) {
      case "object" -> object(node, schema, path, findings);
      case "array" -> {
        if (!(node instanceof List<?> items)) {
          findings.add(path + ": not an array");
          return;
        }
        for (int i = 0; i < items.size(); i++) walk(items.get(i), schema.getJsonObject("items", new JsonObject()), path + "/" + i, findings);
      }
      case "string" -> { if (!(node instanceof String)) findings.add(path + ": not a string (" + node + ")"); }
      case "integer" -> { if (!(node instanceof Integer || node instanceof Long)) findings.add(path + ": not an integer (" + node + ")"); }
      case "number" -> { if (!(node instanceof Number)) findings.add(path + ": not a number (" + node + ")"); }
      case "boolean" -> { if (!(node instanceof Boolean)) findings.add(path + ": not a boolean (" + node + ")"); }
      default -> findings.add(path + ": the schema's type " + type + " is not known here");
    }
  }

  private static void object(Object node, JsonObject schema, String path, List<String> findings) {
    if (!(node instanceof Map<?, ?> fields)) {
      findings.add(path + ": not an object");
      return;
    }
    JsonObject properties = schema.getJsonObject("properties", new JsonObject());
    Object additional = schema.getValue("additionalProperties");
    boolean preserves = schema.getBoolean("x-kubernetes-preserve-unknown-fields", false);
    for (Map.Entry<?, ?> field : fields.entrySet()) {
      String name = String.valueOf(field.getKey());
      JsonObject of = properties.getJsonObject(name);
      if (of != null) walk(field.getValue(), of, path + "/" + name, findings);
      else if (additional instanceof JsonObject each) walk(field.getValue(), each, path + "/" + name, findings);
      else if (!preserves && !Boolean.TRUE.equals(additional)) findings.add(path + "/" + name + ": not a field of the schema");
    }
    for (Object required : schema.getJsonArray("required", new JsonArray())) {
      if (!fields.containsKey(required)) findings.add(path + ": lacks the required field " + required);
    }
  }
}
