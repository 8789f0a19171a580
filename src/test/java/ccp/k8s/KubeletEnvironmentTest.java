package ccp.k8s;

import ccp.Main;
import ccp.app.SecretsCommand;
import ccp.k8s.Manifests.Doc;
import ccp.support.CommandRun;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static ccp.k8s.Manifests.at;
import static ccp.k8s.Manifests.list;
import static ccp.k8s.Manifests.map;
import static ccp.k8s.Manifests.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each Deployment of {@code k8s/} started as its pod would be: the production entry point with the pod's arguments,
 * {@code --conf} on {@code k8s/ccp.json}, and the environment a kubelet builds. That environment holds the service links
 * of every Service of the namespace (even where a pod turns them off: an overlay or a new Deployment may not), the
 * ConfigMap {@code ccp-env} and each {@code env} entry, with made-up values for the Secrets no file holds.
 */
@DisplayName("Every Deployment's process, given the environment a kubelet gives its pod, gets past its configuration")
class KubeletEnvironmentTest {

  /**
   * The Services the operators make from our resources (not in {@code k8s/}), with their ports: Strimzi's bootstrap for
   * the listener {@code plain} and its replication port, and CloudNativePG's read-write, read-only and any-instance
   * Services. Headless Services ({@code clusterIP: None}, such as Strimzi's brokers) give no variables.
   */
  private static final Map<String, Map<String, Integer>> OPERATORS_SERVICES = Map.of(
    "ccp-kafka-kafka-bootstrap", Map.of("tcp-replication", 9091, "tcp-plain", 9092),
    "ccp-pg-rw", Map.of("postgres", 5432),
    "ccp-pg-ro", Map.of("postgres", 5432),
    "ccp-pg-r", Map.of("postgres", 5432));

  private static final JsonObject SECRETS = SecretsCommand.manifests();
  private static List<Doc> shipped;
  private static List<Doc> rendered;

  @BeforeAll
  static void render(@TempDir Path copy) throws Exception {
    shipped = Rendered.of(Manifests.K8S);
    // What docs/operations.md has one do first: set the cluster's public names in k8s/public.env.
    try (Stream<Path> files = Files.walk(Manifests.K8S)) {
      for (Path file : files.toList()) {
        Path to = copy.resolve(Manifests.K8S.relativize(file).toString());
        if (Files.isDirectory(file)) Files.createDirectories(to);
        else Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.writeString(copy.resolve("public.env"), "CCP_JWT_ISSUER=" + Manifests.PUBLIC_NAMES.get("CCP_JWT_ISSUER") + "\n"
      + "CCP_SSF_ISSUER=" + Manifests.PUBLIC_NAMES.get("CCP_SSF_ISSUER") + "\n");
    rendered = Rendered.of(copy);
  }

  @Test
  @DisplayName("with public.env as shipped, a process refuses to start and names the issuer that is still a placeholder")
  void placeholderIssuerRefused() throws Exception {
    Doc gateway = Rendered.ofKind(shipped, "Deployment").stream().filter(d -> d.name().equals("ccp-gateway")).findFirst().orElseThrow();
    CommandRun run = start(shipped, gateway, serviceLinks(shipped));
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.stderr()).contains("CCP_JWT_ISSUER='https://keycloak.example.com/realms/ccp' is a placeholder");
  }

  @Test
  @DisplayName("a kubelet's service links, ccp-env and the pod's own variables: no process stops on its configuration (exit 2)")
  void everyDeploymentPastItsConfiguration() throws Exception {
    Map<String, String> links = serviceLinks(rendered);
    assertThat(links).containsKeys("CCP_GESTOR_SERVICE_HOST", "CCP_GESTOR_PORT", "CCP_PG_RW_PORT_5432_TCP_ADDR");
    List<Doc> deployments = Rendered.ofKind(rendered, "Deployment");
    assertThat(deployments).hasSize(9);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Map<String, Future<CommandRun>> runs = new TreeMap<>();
      for (Doc deployment : deployments) runs.put(deployment.name(), pool.submit(() -> start(rendered, deployment, links)));
      // Past its configuration, a process outside the cluster stops on the first in-cluster name it cannot reach: it
      // names it, or fails to start (exit 1, "start-up failed": the Kafka client finds no resolvable bootstrap).
      List<String> clusterHosts = List.of("keycloak-service.keycloak.svc", "ccp-pg-rw", "ccp-kafka-kafka-bootstrap",
        "start-up failed: ");
      for (Map.Entry<String, Future<CommandRun>> run : runs.entrySet()) {
        CommandRun result = run.getValue().get();
        assertThat(result.status()).as(run.getKey()).isNotZero();
        assertThat(result.stderr()).as(run.getKey()).doesNotContain("unknown environment variable", "is not a number", "is invalid")
          .containsAnyOf(clusterHosts.toArray(String[]::new));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The production entry point with the pod's arguments, its --conf read from k8s/, in the environment of its pod. */
  private static CommandRun start(List<Doc> docs, Doc deployment, Map<String, String> links) throws Exception {
    Map<String, Object> container = map(list(at(deployment.body(), "spec", "template", "spec", "containers")).get(0));
    Map<String, String> env = podEnvironment(docs, links, container);
    // Not the pod's: the JDK's resolver, which tells at once that a cluster name does not resolve here, in place of
    // Vert.x's own, which asks again for seconds; it changes nothing before the configuration is read.
    env.put("JAVA_TOOL_OPTIONS", "-Dvertx.disableDnsResolver=true");
    String args = String.join(" ", list(container.get("args")).stream().map(String::valueOf)
      .map(a -> a.startsWith("--conf=") ? "--conf=" + Manifests.K8S.resolve(Path.of(a.substring("--conf=".length())).getFileName()) : a)
      .toList());
    return CommandRun.of(Main.class, args, env, Duration.ofMinutes(3));
  }

  /** The variables a kubelet derives from every Service with a cluster IP in the namespace, as pkg/kubelet/envvars does. */
  private static Map<String, String> serviceLinks(List<Doc> docs) {
    Map<String, Map<String, Integer>> services = new TreeMap<>(OPERATORS_SERVICES);
    for (Doc service : Rendered.ofKind(docs, "Service")) {
      if ("None".equals(str(service.body(), "spec", "clusterIP"))) continue;
      Map<String, Integer> ports = new LinkedHashMap<>();
      list(at(service.body(), "spec", "ports")).forEach(p -> ports.put(str(p, "name"), (Integer) at(p, "port")));
      services.put(service.name(), ports);
    }
    Map<String, String> env = new LinkedHashMap<>();
    int n = 10;
    for (Map.Entry<String, Map<String, Integer>> service : services.entrySet()) {
      String ip = "10.96.0." + n++;
      String prefix = service.getKey().toUpperCase(Locale.ROOT).replace('-', '_');
      List<Map.Entry<String, Integer>> ports = new ArrayList<>(service.getValue().entrySet());
      env.put(prefix + "_SERVICE_HOST", ip);
      env.put(prefix + "_SERVICE_PORT", String.valueOf(ports.get(0).getValue()));
      env.put(prefix + "_PORT", "tcp://" + ip + ":" + ports.get(0).getValue());
      for (Map.Entry<String, Integer> port : ports) {
        if (port.getKey() != null) env.put(prefix + "_SERVICE_PORT_" + port.getKey().toUpperCase(Locale.ROOT).replace('-', '_'), String.valueOf(port.getValue()));
        String tcp = prefix + "_PORT_" + port.getValue() + "_TCP";
        env.put(tcp, "tcp://" + ip + ":" + port.getValue());
        env.put(tcp + "_PROTO", "tcp");
        env.put(tcp + "_PORT", String.valueOf(port.getValue()));
        env.put(tcp + "_ADDR", ip);
      }
    }
    // The API server's, from the default namespace, which every pod gets.
    env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    env.put("KUBERNETES_SERVICE_PORT", "443");
    env.put("KUBERNETES_PORT", "tcp://10.96.0.1:443");
    return env;
  }

  /** The kubelet's order: a variable of the container (envFrom, then env) wins over a service link of the same name. */
  private static Map<String, String> podEnvironment(List<Doc> docs, Map<String, String> links, Map<String, Object> container) {
    Map<String, String> env = new TreeMap<>(links);
    for (Object from : list(container.get("envFrom"))) env.putAll(configMapData(docs, str(from, "configMapRef", "name")));
    for (Object entry : list(container.get("env"))) {
      env.put(str(entry, "name"), at(entry, "value") != null ? str(entry, "value") : valueOf(entry));
    }
    return env;
  }

  /**
   * The value a Secret or ConfigMap the pod reads holds: made by k8s-secrets as the operator does (docs/operations.md),
   * or, for a Kafka password that Strimzi's User Operator writes, one of that form.
   */
  private static String valueOf(Object entry) {
    Object secret = at(entry, "valueFrom", "secretKeyRef");
    Object configMap = at(entry, "valueFrom", "configMapKeyRef");
    Object ref = secret != null ? secret : configMap;
    JsonObject made = SECRETS.getJsonArray("items").stream().map(JsonObject.class::cast)
      .filter(item -> item.getJsonObject("metadata").getString("name").equals(str(ref, "name"))).findFirst().orElse(null);
    if (made == null) {
      assertThat(str(ref, "key")).as(str(ref, "name") + ": a Kafka password").isEqualTo("password");
      return "p4ssw0rd-" + str(ref, "name");
    }
    return made.getJsonObject(made.containsKey("stringData") ? "stringData" : "data").getString(str(ref, "key"));
  }

  private static Map<String, String> configMapData(List<Doc> docs, String name) {
    Doc configMap = Rendered.ofKind(docs, "ConfigMap").stream().filter(c -> c.name().equals(name)).findFirst()
      .orElseThrow(() -> new AssertionError("no ConfigMap " + name + " rendered"));
    Map<String, String> data = new TreeMap<>();
    map(at(configMap.body(), "data")).forEach((k, v) -> data.put(k, String.valueOf(v)));
    return data;
  }
}
