package ccp.k8s;

import ccp.app.Role;
import ccp.k8s.Manifests.Doc;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Topics;
import ccp.platform.kafka.TopicsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static ccp.k8s.Manifests.at;
import static ccp.k8s.Manifests.list;
import static ccp.k8s.Manifests.map;
import static ccp.k8s.Manifests.str;
import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The Kubernetes manifests in k8s/ deploy what the jar is")
class ManifestosTest {

  /**
   * DG-CON-001's replicas. The Gestor has N (its HorizontalPodAutoscaler's floor is the view's two instances);
   * "1 active + 1 standby" and "1 leader + 1 standby" are two processes; P ≤ partitions is checked on its own.
   */
  private static final Map<Role, Integer> VIEW_REPLICAS = new EnumMap<>(Map.of(
    Role.GATEWAY, 2, Role.GESTOR, 2, Role.SEGURIDAD, 2, Role.PEDIDOS, 2, Role.CADENA, 2,
    Role.FACTURACION, 2, Role.INVENTARIO, 2, Role.DESPACHO, 2, Role.VIGILANCIA, 2));
  private static final Set<Role> UP_TO_CHAIN_PARTITIONS = Set.of(
    Role.PEDIDOS, Role.CADENA, Role.FACTURACION, Role.INVENTARIO, Role.DESPACHO);
  /** The keys CloudNativePG writes into its {@code <cluster>-app} Secret. */
  private static final Set<String> CNPG_APP_KEYS = Set.of(
    "host", "port", "dbname", "user", "username", "password", "uri", "jdbc-uri", "pgpass");

  private static Manifests k8s;
  private static Map<String, String> clusterEnv;

  @BeforeAll
  static void parse() throws IOException {
    k8s = new Manifests();
    clusterEnv = Manifests.envFile(Manifests.K8S.resolve(envFileOf("ccp-env")));
  }

  @Test
  @DisplayName("every role of the jar has its Deployment with the view's replica count, and no Deployment runs anything else")
  void replicasOfTheView() {
    for (Role role : Role.values()) {
      Doc deployment = deploymentOf(role);
      assertThat(list(at(container(deployment), "args"))).as(deployment.name()).contains("--role=" + role.id());
      if (role == Role.GESTOR) {
        assertThat(at(deployment.body(), "spec", "replicas")).as("the HPA owns the gestor's count").isNull();
        Doc hpa = hpaOf(deployment.name());
        assertThat(at(hpa.body(), "spec", "minReplicas")).isEqualTo(VIEW_REPLICAS.get(role));
        assertThat((Integer) at(hpa.body(), "spec", "maxReplicas")).isGreaterThan(VIEW_REPLICAS.get(role));
      } else {
        assertThat(at(deployment.body(), "spec", "replicas")).as(deployment.name()).isEqualTo(VIEW_REPLICAS.get(role));
      }
    }
    assertThat(k8s.ofKind("Deployment")).hasSize(Role.values().length);
  }

  @Test
  @DisplayName("chain roles have at most as many replicas as the chain topics have partitions; security roles share one partition")
  void replicasFitThePartitions() throws IOException {
    Settings settings = Manifests.settings(clusterEnv);
    for (Role role : UP_TO_CHAIN_PARTITIONS) {
      assertThat((Integer) at(deploymentOf(role).body(), "spec", "replicas")).as(role.id())
        .isLessThanOrEqualTo(settings.integer("kafka.partitions.chain"));
    }
    // Two seguridad processes on one partition per topic: Kafka gives it to one, the other waits as the standby.
    assertThat(settings.integer("kafka.partitions.security")).isEqualTo(1);
  }

  @Test
  @DisplayName("every topic of Topics has its KafkaTopic with the partitions the code asks for, and no other topic is declared")
  void topics() throws IOException {
    Settings settings = Manifests.settings(clusterEnv);
    Map<String, Integer> declared = new LinkedHashMap<>();
    String cluster = k8s.ofKind("Kafka").get(0).name();
    for (Doc topic : k8s.ofKind("KafkaTopic")) {
      String name = str(topic.body(), "spec", "topicName") != null ? str(topic.body(), "spec", "topicName") : topic.name();
      declared.put(name, (Integer) at(topic.body(), "spec", "partitions"));
      assertThat(at(topic.body(), "spec", "replicas")).as(name).isEqualTo(settings.integer("kafka.replication-factor"));
      assertThat(str(topic.body(), "metadata", "labels", "strimzi.io/cluster")).as(name).isEqualTo(cluster);
    }
    assertThat(declared).isEqualTo(Topics.partitions(TopicsConfig.from(settings)));
    assertThat(settings.text("kafka.bootstrap")).startsWith(cluster + "-kafka-bootstrap:");
  }

  @Test
  @DisplayName("probes ask the management server for paths it serves, on the management port the jar listens on")
  void probes() throws Exception {
    try (RunningManagement management = RunningManagement.start()) {
      assertThat(management.status("/no-such-path")).as("a path the server does not serve").isEqualTo(404);
      for (Doc deployment : k8s.ofKind("Deployment")) {
        Map<String, Object> container = container(deployment);
        int managementPort = settingsOf(container).integer("management.port");
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
          String what = deployment.name() + " " + probe;
          String path = str(container, probe, "httpGet", "path");
          assertThat(path).as(what).isNotNull();
          assertThat(management.status(path)).as(what + " " + path).isNotEqualTo(404);
          assertThat(containerPort(container, at(container, probe, "httpGet", "port"))).as(what).isEqualTo(managementPort);
        }
      }
    }
  }

  @Test
  @DisplayName("every Deployment runs the image that Jib builds from pom.xml")
  void image() throws Exception {
    String jibImage = jibImage();
    for (Doc deployment : k8s.ofKind("Deployment")) {
      assertThat(str(container(deployment), "image")).as(deployment.name()).isEqualTo(jibImage);
    }
  }

  @Test
  @DisplayName("every variable the manifests set is a CCP_<KEY> the jar reads, with a value it accepts, and the infrastructure is external")
  void environment() throws IOException {
    Set<String> valid = Manifests.confJson().fieldNames().stream().map(Settings::envName).collect(Collectors.toSet());
    assertThat(valid).as("conf/ccp.json names every key Settings knows").contains("CCP_PG_PASSWORD", "CCP_JWT_SECRET");
    assertThat(clusterEnv.keySet()).isSubsetOf(valid);
    String pgCluster = k8s.ofKind("Cluster").get(0).name();
    for (Doc deployment : k8s.ofKind("Deployment")) {
      Map<String, Object> container = container(deployment);
      Set<String> names = new TreeSet<>(clusterEnv.keySet());
      for (Object entry : list(container.get("env"))) {
        String name = str(entry, "name");
        names.add(name);
        Object secretName = at(entry, "valueFrom", "secretKeyRef", "name");
        if (name.startsWith("CCP_PG_")) {
          assertThat(secretName).as(name + " comes from CloudNativePG's Secret").isEqualTo(pgCluster + "-app");
          assertThat(CNPG_APP_KEYS).contains(str(entry, "valueFrom", "secretKeyRef", "key"));
        }
      }
      assertThat(names).as(deployment.name()).isSubsetOf(valid)
        // Left empty, the jar would start an embedded Kafka / PostgreSQL inside the pod, or refuse to start.
        .contains("CCP_KAFKA_BOOTSTRAP", "CCP_PG_HOST", "CCP_PG_PORT", "CCP_PG_DATABASE", "CCP_PG_USER", "CCP_PG_PASSWORD", "CCP_JWT_SECRET");
      assertThat(secretRef(container, "CCP_JWT_SECRET")).as("the JWT secret comes from a Secret").isNotNull();
      assertThat(settingsOf(container).embeddedKafka()).isFalse();
    }
    assertThat(k8s.ofKind("Secret")).as("no secret value is committed").isEmpty();
  }

  @Test
  @DisplayName("the configuration every pod reads with --conf is conf/ccp.json, through a ConfigMap generated from its copy")
  void configMap() throws IOException {
    for (Doc deployment : k8s.ofKind("Deployment")) {
      Map<String, Object> pod = map(at(deployment.body(), "spec", "template", "spec"));
      Map<String, Object> container = container(deployment);
      String conf = list(container.get("args")).stream().map(String::valueOf).filter(a -> a.startsWith("--conf="))
        .map(a -> a.substring("--conf=".length())).findFirst().orElseThrow(() -> new AssertionError(deployment.name() + " has no --conf"));
      Path confPath = Path.of(conf);
      Object mount = list(container.get("volumeMounts")).stream()
        .filter(m -> confPath.getParent().equals(Path.of(str(m, "mountPath")))).findFirst()
        .orElseThrow(() -> new AssertionError(deployment.name() + " mounts nothing at " + confPath.getParent()));
      String configMap = list(pod.get("volumes")).stream().filter(v -> str(mount, "name").equals(str(v, "name")))
        .map(v -> str(v, "configMap", "name")).findFirst().orElseThrow();
      Object generator = generator(configMap);
      assertThat(list(at(generator, "files"))).as(configMap).containsExactly(confPath.getFileName().toString());
      assertThat(Files.readString(Manifests.K8S.resolve(confPath.getFileName().toString())))
        .as("k8s/%s is a copy of %s: copy it again", confPath.getFileName(), Manifests.CONF)
        .isEqualTo(Files.readString(Manifests.CONF));
      assertThat(list(container.get("envFrom")).stream().map(e -> str(e, "configMapRef", "name"))).contains("ccp-env");
    }
  }

  @Test
  @DisplayName("every Deployment has requests, limits and a PodDisruptionBudget that still lets a node drain")
  void resourcesAndDisruptionBudgets() {
    for (Doc deployment : k8s.ofKind("Deployment")) {
      Map<String, Object> container = container(deployment);
      for (String bound : List.of("requests", "limits")) {
        assertThat(map(at(container, "resources", bound))).as(deployment.name() + " " + bound).containsKeys("cpu", "memory");
      }
      Object podLabels = at(deployment.body(), "spec", "template", "metadata", "labels");
      List<Doc> budgets = k8s.ofKind("PodDisruptionBudget").stream()
        .filter(p -> map(podLabels).entrySet().containsAll(map(at(p.body(), "spec", "selector", "matchLabels")).entrySet()))
        .toList();
      assertThat(budgets).as(deployment.name()).hasSize(1);
      Object replicas = at(deployment.body(), "spec", "replicas");
      int fewest = replicas != null ? (Integer) replicas : (Integer) at(hpaOf(deployment.name()).body(), "spec", "minReplicas");
      assertThat((Integer) at(budgets.get(0).body(), "spec", "minAvailable")).as(deployment.name()).isBetween(1, fewest - 1);
    }
  }

  @Test
  @DisplayName("every manifest under k8s/ is listed in a kustomization, and every listed file exists")
  void kustomizations() throws IOException {
    Set<Path> listed = new TreeSet<>();
    for (Path kustomization : k8s.kustomizations) {
      Map<String, Object> body = Manifests.load(kustomization).get(0).body();
      for (Object resource : list(body.get("resources"))) {
        Path file = kustomization.getParent().resolve(String.valueOf(resource));
        assertThat(file).as(kustomization + " lists").isRegularFile();
        listed.add(file);
      }
    }
    Set<Path> manifests = new TreeSet<>();
    k8s.docs.stream().map(Doc::file).filter(f -> !k8s.kustomizations.contains(f)).forEach(manifests::add);
    assertThat(listed).isEqualTo(manifests);
  }

  @Test
  @DisplayName("the dashboard queries metrics that /metrics really exports, and draws each ASR against its configured budget")
  void dashboard() throws Exception {
    Settings settings = Manifests.settings(clusterEnv);
    Object generator = generator("ccp-grafana-dashboard");
    assertThat(str(generator, "options", "labels", "grafana_dashboard")).isNotNull();
    Map<String, Object> dashboard = map(new org.yaml.snakeyaml.Yaml().load(
      Files.readString(Manifests.K8S.resolve(String.valueOf(list(at(generator, "files")).get(0))))));
    List<Object> panels = list(dashboard.get("panels"));
    List<String> expressions = new ArrayList<>();
    panels.forEach(p -> list(at(p, "targets")).forEach(t -> expressions.add(str(t, "expr"))));

    String scrape;
    try (RunningManagement management = RunningManagement.start()) {
      management.recordEveryAsr(settings);
      management.answer503();
      scrape = management.body("/metrics");
    }
    Matcher metric = Pattern.compile("\\b((?:asr\\d|vertx)_[a-z0-9_]+)\\b").matcher(String.join("\n", expressions));
    Set<String> used = new TreeSet<>();
    while (metric.find()) used.add(metric.group(1));
    assertThat(used).contains("vertx_http_server_requests_total");
    for (String name : used) {
      assertThat(scrape).as("/metrics exports " + name).contains("\n" + name + "{");
    }
    assertThat(scrape).containsPattern("vertx_http_server_requests_total\\{[^}]*code=\"503\"");
    assertThat(expressions).anyMatch(e -> e.contains("vertx_http_server_requests_total{code=~\"5..\"}"));
    assertThat(expressions).anyMatch(e -> e.contains("topic=\"" + Topics.COLA_FALLIDOS + "\""));

    for (int asr = 1; asr <= 4; asr++) {
      String name = "asr" + asr;
      double budgetSeconds = settings.integer(name + ".budget-ms") / 1000.0;
      Object panel = panels.stream().filter(p -> list(at(p, "targets")).stream()
        .anyMatch(t -> str(t, "expr").contains(name + "_seconds_bucket"))).findFirst()
        .orElseThrow(() -> new AssertionError("no panel for " + name));
      String within = name + "_seconds_bucket{le=\"" + budgetSeconds + "\"}";
      assertThat(list(at(panel, "targets")).stream().map(t -> str(t, "expr"))).as(name)
        .anyMatch(e -> e.contains("histogram_quantile(0.99") && e.contains(name + "_seconds_bucket"))
        .anyMatch(e -> e.contains(within));
      assertThat(scrape).as("the budget is an SLO bucket of " + name)
        .contains(name + "_seconds_bucket{budget=\"" + settings.integer(name + ".budget-ms") + "ms\",le=\"" + budgetSeconds + "\"}");
      List<Object> steps = list(at(panel, "fieldConfig", "defaults", "thresholds", "steps"));
      assertThat(((Number) at(steps.get(steps.size() - 1), "value")).doubleValue()).as(name + " budget line").isEqualTo(budgetSeconds);
    }
    Object podMonitor = k8s.named("PodMonitor", "reto2-ccp").body();
    assertThat(list(at(list(at(podMonitor, "spec", "podMetricsEndpoints")).get(0), "relabelings")).stream()
      .map(r -> str(r, "targetLabel"))).as("the dashboard groups by role").contains("role");
  }

  private static Doc deploymentOf(Role role) {
    return k8s.named("Deployment", "ccp-" + role.id());
  }

  private static Doc hpaOf(String deployment) {
    return k8s.ofKind("HorizontalPodAutoscaler").stream()
      .filter(h -> deployment.equals(str(h.body(), "spec", "scaleTargetRef", "name"))).findFirst()
      .orElseThrow(() -> new AssertionError("no HorizontalPodAutoscaler scales " + deployment));
  }

  private static Map<String, Object> container(Doc deployment) {
    List<Object> containers = list(at(deployment.body(), "spec", "template", "spec", "containers"));
    assertThat(containers).as(deployment.name() + " runs one process").hasSize(1);
    return map(containers.get(0));
  }

  /** The settings of this container: conf/ccp.json, the cluster's env file, and its own literal values. */
  private static Settings settingsOf(Map<String, Object> container) throws IOException {
    Map<String, String> env = new HashMap<>(clusterEnv);
    for (Object entry : list(container.get("env"))) {
      if (at(entry, "value") != null) env.put(str(entry, "name"), str(entry, "value"));
    }
    return Manifests.settings(env);
  }

  private static Object secretRef(Map<String, Object> container, String name) {
    return list(container.get("env")).stream().filter(e -> name.equals(str(e, "name")))
      .map(e -> at(e, "valueFrom", "secretKeyRef")).findFirst().orElse(null);
  }

  private static int containerPort(Map<String, Object> container, Object port) {
    if (port instanceof Integer number) return number;
    return list(container.get("ports")).stream().filter(p -> String.valueOf(port).equals(str(p, "name")))
      .map(p -> (Integer) at(p, "containerPort")).findFirst()
      .orElseThrow(() -> new AssertionError("no container port named " + port));
  }

  private static Object generator(String name) throws IOException {
    Map<String, Object> kustomization = Manifests.load(Manifests.K8S.resolve("kustomization.yaml")).get(0).body();
    return list(kustomization.get("configMapGenerator")).stream().filter(g -> name.equals(str(g, "name"))).findFirst()
      .orElseThrow(() -> new AssertionError("k8s/kustomization.yaml generates no ConfigMap " + name));
  }

  private static String envFileOf(String generator) throws IOException {
    return String.valueOf(list(at(generator(generator), "envs")).get(0));
  }

  /** {@code <to><image>} of the Jib plugin in system/pom.xml, its ${properties} resolved from the parent pom.xml. */
  private static String jibImage() throws Exception {
    Element parent = parse(Path.of("pom.xml"));
    Map<String, String> properties = new HashMap<>();
    properties.put("project.version", child(parent, "version").getTextContent().trim());
    NodeList declared = child(parent, "properties").getChildNodes();
    for (int i = 0; i < declared.getLength(); i++) {
      if (declared.item(i) instanceof Element property) properties.put(property.getTagName(), property.getTextContent().trim());
    }
    NodeList plugins = parse(Path.of("system", "pom.xml")).getElementsByTagName("plugin");
    for (int i = 0; i < plugins.getLength(); i++) {
      Element plugin = (Element) plugins.item(i);
      if ("jib-maven-plugin".equals(child(plugin, "artifactId").getTextContent().trim())) {
        String image = child(child(child(plugin, "configuration"), "to"), "image").getTextContent().trim();
        for (int round = 0; image.contains("${") && round < 5; round++) {
          for (Map.Entry<String, String> p : properties.entrySet()) image = image.replace("${" + p.getKey() + "}", p.getValue());
        }
        return image;
      }
    }
    throw new AssertionError("system/pom.xml has no jib-maven-plugin");
  }

  private static Element parse(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
  }

  private static Element child(Element parent, String tag) {
    NodeList children = parent.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (children.item(i) instanceof Element e && e.getTagName().equals(tag)) return e;
    }
    throw new AssertionError("<" + parent.getTagName() + "> has no <" + tag + ">");
  }
}
