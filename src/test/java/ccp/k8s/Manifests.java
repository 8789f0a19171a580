package ccp.k8s;

import ccp.platform.config.Settings;
import io.vertx.core.json.JsonObject;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/** Every document of every manifest under {@code k8s/}, parsed with SnakeYAML, and the navigation the checks need. */
final class Manifests {

  static final Path K8S = Path.of("k8s");
  static final Path CONF = Path.of("conf", "ccp.json");

  /** One parsed document and the file it came from. */
  record Doc(Path file, Map<String, Object> body) {
    String kind() {
      return (String) body.get("kind");
    }

    String name() {
      return str(body, "metadata", "name");
    }
  }

  final List<Doc> docs = new ArrayList<>();
  final List<Path> kustomizations = new ArrayList<>();

  Manifests() throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(K8S)) {
      files = walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    for (Path file : files) {
      if (file.getFileName().toString().equals("kustomization.yaml")) {
        kustomizations.add(file);
      }
      docs.addAll(load(file));
    }
  }

  static List<Doc> load(Path file) throws IOException {
    List<Doc> out = new ArrayList<>();
    try (Reader reader = Files.newBufferedReader(file)) {
      for (Object doc : new Yaml().loadAll(reader)) {
        if (doc != null) out.add(new Doc(file, map(doc)));
      }
    }
    return out;
  }

  List<Doc> ofKind(String kind) {
    return docs.stream().filter(d -> kind.equals(d.kind())).toList();
  }

  Doc named(String kind, String name) {
    return ofKind(kind).stream().filter(d -> name.equals(d.name())).findFirst()
      .orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " under " + K8S));
  }

  static JsonObject confJson() throws IOException {
    return new JsonObject(Files.readString(CONF));
  }

  /**
   * The cluster's public names as docs/operations.md has one set them in {@code k8s/public.env} before applying: the
   * committed ones are placeholders, which a process refuses.
   */
  static final Map<String, String> PUBLIC_NAMES = Map.of(
    "CCP_JWT_ISSUER", "https://sso.ccp.cluster.local/realms/ccp",
    "CCP_CONSOLA_OIDC_ISSUER", "https://sso.ccp.cluster.local/realms/ccp",
    "CCP_SSF_ISSUER", "https://ccp.cluster.local");

  /**
   * The settings a process would get from conf/ccp.json and these {@code CCP_*} values, once the public names are set
   * ({@link #PUBLIC_NAMES}); fails like the jar would.
   */
  static Settings settings(Map<String, String> env) throws IOException {
    Map<String, String> named = new HashMap<>(env);
    PUBLIC_NAMES.forEach((key, value) -> named.computeIfPresent(key, (k, placeholder) -> value));
    return Settings.from(confJson(), named);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object node) {
    if (!(node instanceof Map)) throw new AssertionError("expected a mapping, got " + node);
    return (Map<String, Object>) node;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object node) {
    if (node == null) return List.of();
    if (!(node instanceof List)) throw new AssertionError("expected a sequence, got " + node);
    return (List<Object>) node;
  }

  /** The node at {@code path} below {@code root}, or null when any step is missing. */
  static Object at(Object root, String... path) {
    Object node = root;
    for (String step : path) {
      if (!(node instanceof Map<?, ?> m)) return null;
      node = m.get(step);
    }
    return node;
  }

  /** Whether a label selector's {@code matchLabels} (the only form these manifests use) picks pods with {@code labels}. */
  static boolean selects(Object selector, Map<String, Object> labels) {
    if (selector == null || at(selector, "matchExpressions") != null) return false;
    Object matchLabels = at(selector, "matchLabels");
    return matchLabels == null || labels.entrySet().containsAll(map(matchLabels).entrySet());
  }

  static String str(Object root, String... path) {
    Object value = at(root, path);
    return value == null ? null : Objects.toString(value);
  }
}
