package ccp.platform.http;

import ccp.platform.config.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Path;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The App's contract ({@code openapi/ccp-api.yaml}), read and checked as OpenAPI by vertx-openapi, and the check that a
 * role's router mounts only operations it names: an App route missing from the contract fails the role's start.
 * Management ({@code /health/*}, {@code /metrics}), the console's redirect ({@code /}) and role-to-role calls
 * ({@code /interno/*}) are not the App's and are not in it. vertx-openapi 5.0 reads only some media types: the others
 * ({@code application/secevent+jwt}, {@code text/event-stream}...) are left out of the copy it reads, their operations
 * kept.
 */
public final class Contrato {

  public static final String RECURSO = "openapi/ccp-api.yaml";
  private static final Set<String> AJENAS = Set.of("/", "/health/live", "/health/ready", "/metrics");

  private final OpenAPIContract contract;
  private final Set<String> operaciones;

  private Contrato(OpenAPIContract contract) {
    this.contract = contract;
    Set<String> todas = new TreeSet<>();
    for (Path path : contract.getPaths()) {
      for (Operation operation : path.getOperations()) todas.add(operation.getHttpMethod().name() + " " + path.getName());
    }
    this.operaciones = todas;
  }

  /** The contract, read from the class path; fails when it is not valid OpenAPI. */
  public static Future<Contrato> cargar(Vertx vertx) {
    JsonObject json;
    try {
      json = legible(leer());
    } catch (RuntimeException e) {
      return Future.failedFuture(new ConfigException(RECURSO + " cannot be read: " + e.getMessage()));
    }
    return OpenAPIContract.from(vertx, json).map(Contrato::new);
  }

  /** Every operation, as {@code METHOD /path/{param}}. */
  public Set<String> operaciones() {
    return operaciones;
  }

  public OpenAPIContract contract() {
    return contract;
  }

  /** The App operations {@code router} mounts, as {@code METHOD /path/{param}}; wildcard and method-less routes aside. */
  public static Set<String> montadas(Router router) {
    Set<String> montadas = new TreeSet<>();
    for (Route route : router.getRoutes()) {
      String path = route.getPath();
      Set<HttpMethod> methods = route.methods();
      if (path == null || methods == null || methods.isEmpty()) continue;
      if (path.endsWith("/") && !path.equals("/") || AJENAS.contains(path) || path.startsWith("/interno/")) continue;
      String nombre = path.replaceAll(":([A-Za-z0-9_]+)", "{$1}");
      for (HttpMethod method : methods) montadas.add(method.name() + " " + nombre);
    }
    return montadas;
  }

  /**
   * @throws ConfigException when {@code router} mounts an App operation the contract does not name (path parameters
   *                         compared by place, not by name)
   */
  public void verificar(Router router, String servidor) {
    Set<String> nombradas = new TreeSet<>();
    operaciones.forEach(operacion -> nombradas.add(sinNombres(operacion)));
    List<String> fuera = new ArrayList<>(montadas(router));
    fuera.removeIf(operacion -> nombradas.contains(sinNombres(operacion)));
    if (!fuera.isEmpty()) throw new ConfigException(servidor + " mounts operations " + RECURSO + " does not name: " + fuera);
  }

  private static String sinNombres(String operacion) {
    return operacion.replaceAll("\\{[^}]*}", "{}");
  }

  private static Map<String, Object> leer() {
    try (InputStream in = Contrato.class.getClassLoader().getResourceAsStream(RECURSO)) {
      if (in == null) throw new IllegalStateException("not on the class path");
      return new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The contract as vertx-openapi reads it: without the media types it cannot read (a request body or response keeps
   * the others, a request body left with none goes), every operation with an id, and each pattern anchored at its end
   * as the contract means it.
   */
  private static JsonObject legible(Map<String, Object> yaml) {
    JsonObject json = (JsonObject) plano(yaml);
    anclar(json);
    JsonObject paths = json.getJsonObject("paths", new JsonObject());
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        if (!(item.getValue(method) instanceof JsonObject operation)) continue;
        // vertx-openapi keys operations by their id, which OpenAPI leaves optional: one without is named by its route.
        if (!operation.containsKey("operationId")) operation.put("operationId", method.toUpperCase(Locale.ROOT) + " " + path);
        if (operation.getValue("requestBody") instanceof JsonObject body && !legibles(body)) operation.remove("requestBody");
        if (operation.getValue("responses") instanceof JsonObject responses) {
          for (String status : responses.fieldNames()) {
            if (responses.getValue(status) instanceof JsonObject response) legibles(response);
          }
        }
      }
    }
    if (json.getValue("components") instanceof JsonObject components && components.getValue("responses") instanceof JsonObject shared) {
      for (String name : shared.fieldNames()) {
        if (shared.getValue(name) instanceof JsonObject response) legibles(response);
      }
    }
    return json;
  }

  /**
   * A schema's {@code pattern} is an ECMA-262 expression, where {@code $} is the end of the text; in Java's, which the
   * schema validator compiles, it also matches before a final line break ({@code "abcdefgh\n"} would pass
   * {@code ^[a-z]{8}$}). A pattern's closing {@code $} becomes {@code \z}.
   */
  private static void anclar(Object node) {
    if (node instanceof JsonObject object) {
      if (object.getValue("pattern") instanceof String pattern && pattern.endsWith("$") && !pattern.endsWith("\\$")) {
        object.put("pattern", pattern.substring(0, pattern.length() - 1) + "\\z");
      }
      object.forEach(entry -> anclar(entry.getValue()));
    } else if (node instanceof JsonArray array) {
      array.forEach(Contrato::anclar);
    }
  }

  /** Drops from {@code holder}'s content the media types vertx-openapi cannot read; false when none was left. */
  private static boolean legibles(JsonObject holder) {
    if (!(holder.getValue("content") instanceof JsonObject content)) return true;
    content.fieldNames().removeIf(type -> !MediaType.isMediaTypeSupported(type));
    if (!content.isEmpty()) return true;
    holder.remove("content");
    return false;
  }

  /** YAML's tree as JSON: maps and lists as JSON objects and arrays, a date (an unquoted timestamp) as its text. */
  private static Object plano(Object yaml) {
    if (yaml instanceof Map<?, ?> map) {
      JsonObject object = new JsonObject();
      map.forEach((key, value) -> object.put(String.valueOf(key), plano(value)));
      return object;
    }
    if (yaml instanceof List<?> list) {
      JsonArray array = new JsonArray();
      list.forEach(value -> array.add(plano(value)));
      return array;
    }
    if (yaml instanceof Date date) return date.toInstant().toString();
    return yaml;
  }
}
