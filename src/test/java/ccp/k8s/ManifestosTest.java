package ccp.k8s;

import ccp.app.KafkaAccess;
import ccp.app.Role;
import ccp.app.SecretsCommand;
import ccp.k8s.Manifests.Doc;
import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.http.Jwks;
import ccp.platform.kafka.KafkaGrant;
import ccp.platform.kafka.Topics;
import ccp.platform.kafka.TopicsConfig;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
  /** DG-CON-001's "P réplicas ≤ particiones": the roles whose replicas share the partitions of their channel. */
  private static final Set<Role> UP_TO_PARTITIONS = Set.of(
    Role.PEDIDOS, Role.CADENA, Role.FACTURACION, Role.INVENTARIO, Role.DESPACHO);
  /**
   * Topics a P role reads with one partition on purpose: the dead letters are few and need no sharing, so one
   * Bandeja reads them and the other replica's consumer waits.
   */
  private static final Set<String> NOT_SHARED = Set.of(Topics.COLA_FALLIDOS);
  /** The view's arrows between roles (DESIGN.md §10): the gateway to the roles behind it, the Detector and the Reacción. */
  private static final Map<Role, Set<Role>> VIEW_CALLS = new EnumMap<>(Map.of(
    Role.GATEWAY, EnumSet.of(Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS, Role.CADENA, Role.INVENTARIO),
    Role.SEGURIDAD, EnumSet.of(Role.GESTOR, Role.PEDIDOS, Role.INVENTARIO)));
  /** SondeoSalud's arrows: vigilancia asks the stages it watches for their readiness, on their management port. */
  private static final Map<Role, Set<Role>> VIEW_PROBES = new EnumMap<>(Map.of(
    Role.VIGILANCIA, EnumSet.of(Role.FACTURACION, Role.DESPACHO)));
  /** The roles holding a leadership lock on a dedicated connection, outside their pool ({@code ccp.platform.db.Liderazgo}). */
  private static final Set<Role> LEADERSHIP = EnumSet.of(Role.SEGURIDAD, Role.VIGILANCIA);
  /** The roles that run an outbox relay, which holds a client of its own. */
  private static final Set<Role> OUTBOX_RELAYS = EnumSet.of(Role.PEDIDOS, Role.INVENTARIO);
  /**
   * CloudNativePG's own connections to the instance, as the superuser: its instance manager's status checks, the
   * metrics exporter's queries and a backup's; generously, since they may use more than the reserved slots.
   */
  private static final int OPERATOR_CONNECTIONS = 10;
  /** The roles that sign their calls with their own key; the gateway forwards the App's token instead. */
  private static final Set<Role> PEER_CALLERS = EnumSet.of(Role.SEGURIDAD);

  private static Manifests k8s;
  /** What {@code kubectl apply -k} sends: of k8s/ and of k8s/monitoring/. */
  private static List<Doc> rendered;
  private static Map<String, String> clusterEnv;

  @BeforeAll
  static void parse() throws Exception {
    k8s = new Manifests();
    rendered = new ArrayList<>(Rendered.of(Manifests.K8S));
    rendered.addAll(Rendered.of(Manifests.K8S.resolve("monitoring")));
    // The ConfigMap every pod reads its CCP_* variables from: ccp.env and public.env, as kustomize merges them.
    Doc env = Rendered.ofKind(rendered, "ConfigMap").stream().filter(c -> c.name().matches("ccp-env-[a-z0-9]+")).findFirst()
      .orElseThrow(() -> new AssertionError("kustomize renders no ConfigMap ccp-env"));
    clusterEnv = new TreeMap<>();
    map(at(env.body(), "data")).forEach((k, v) -> clusterEnv.put(k, String.valueOf(v)));
  }

  @Test
  @DisplayName("every rendered document reads into the real model of its API (fabric8, Strimzi, CloudNativePG's CRD schema) with no unknown field")
  void apiModels() {
    assertThat(rendered).hasSizeGreaterThan(60);
    assertThat(ApiModels.findings(rendered)).isEmpty();
  }

  @Test
  @DisplayName("a misspelt or mistyped field planted in a Deployment, the Kafka, the PostgreSQL Cluster or a PodMonitor is caught")
  void apiModelsCatchAMisspeltField() {
    Map<String, String[]> plants = new LinkedHashMap<>();
    plants.put("Deployment ccp-gestor", new String[] {"spec", "template", "spec", "enableServiceLink"});
    plants.put("Kafka ccp-kafka", new String[] {"spec", "entityOperator", "topicOperator", "resource"});
    plants.put("KafkaUser ccp-pedidos", new String[] {"spec", "authorisation"});
    plants.put("Cluster ccp-pg", new String[] {"spec", "postgresql", "parameter"});
    plants.put("PodMonitor reto2-ccp", new String[] {"spec", "podMetricsEndpoint"});
    plants.put("Ingress ccp-gateway", new String[] {"spec", "rules", "0", "hosts"});
    for (Map.Entry<String, String[]> plant : plants.entrySet()) {
      String[] path = plant.getValue();
      Doc planted = copyOf(plant.getKey());
      Object parent = planted.body();
      for (int i = 0; i < path.length - 1; i++) {
        parent = parent instanceof List<?> items ? items.get(Integer.parseInt(path[i])) : map(parent).get(path[i]);
      }
      map(parent).put(path[path.length - 1], false);
      assertThat(ApiModels.findings(List.of(planted))).as(plant.getKey()).singleElement().asString()
        .contains(plant.getKey().split(" ")[1]).contains(path[path.length - 1]);
    }
    Doc mistyped = copyOf("Deployment ccp-gateway");
    map(at(mistyped.body(), "spec")).put("replicas", "2");
    assertThat(ApiModels.findings(List.of(mistyped))).as("a number as a string").singleElement().asString().contains("ccp-gateway");
    Doc mistypedCrd = copyOf("Cluster ccp-pg");
    map(at(mistypedCrd.body(), "spec")).put("instances", "2");
    assertThat(ApiModels.findings(List.of(mistypedCrd))).singleElement().asString().contains("/spec/instances: not an integer");
  }

  /**
   * Every Secret and ConfigMap a Deployment reads is rendered from k8s/, written by Strimzi's User Operator (the Secret
   * named after a KafkaUser, its {@code password}), or made by {@code k8s-secrets}; and what that command makes is read
   * only by the Deployments it belongs to.
   */
  @Test
  @DisplayName("the keys and passwords no file holds are generated by k8s-secrets, each read only by the Deployments it belongs to")
  void generatedSecrets() {
    List<Doc> generated = SecretsCommand.manifests().getJsonArray("items").stream()
      .map(item -> new Doc(Manifests.K8S, map(io.vertx.core.json.Json.decodeValue(((JsonObject) item).encode(), Map.class)))).toList();
    assertThat(ApiModels.findings(generated)).isEmpty();
    Set<String> made = new TreeSet<>();
    generated.forEach(doc -> map(doc.body().getOrDefault("stringData", doc.body().get("data")))
      .keySet().forEach(key -> made.add(doc.kind() + " " + doc.name() + "/" + key)));
    Set<String> fromK8s = new TreeSet<>();
    Rendered.ofKind(rendered, "ConfigMap").forEach(c -> map(c.body().get("data")).keySet()
      .forEach(key -> fromK8s.add("ConfigMap " + c.name() + "/" + key)));
    Set<String> byOperator = k8s.ofKind("KafkaUser").stream().map(u -> "Secret " + u.name() + "/password").collect(Collectors.toSet());

    Map<String, Set<String>> readers = new TreeMap<>();
    for (Doc deployment : Rendered.ofKind(rendered, "Deployment")) {
      Map<String, Object> container = container(deployment);
      for (Object entry : list(container.get("env"))) {
        Object secret = at(entry, "valueFrom", "secretKeyRef");
        Object configMap = at(entry, "valueFrom", "configMapKeyRef");
        String ref = secret != null ? "Secret " + str(secret, "name") + "/" + str(secret, "key")
          : configMap != null ? "ConfigMap " + str(configMap, "name") + "/" + str(configMap, "key") : null;
        if (ref != null) readers.computeIfAbsent(ref, r -> new TreeSet<>()).add(deployment.name());
      }
      for (Object from : list(container.get("envFrom"))) {
        String name = str(from, "configMapRef", "name");
        assertThat(fromK8s).as(deployment.name() + " reads " + name).anyMatch(r -> r.startsWith("ConfigMap " + name + "/"));
      }
      for (Object volume : list(at(deployment.body(), "spec", "template", "spec", "volumes"))) {
        if (at(volume, "configMap") == null) continue;
        String name = str(volume, "configMap", "name");
        assertThat(fromK8s).as(deployment.name() + " mounts " + name).anyMatch(r -> r.startsWith("ConfigMap " + name + "/"));
      }
    }
    for (String ref : readers.keySet()) {
      assertThat(made.contains(ref) || fromK8s.contains(ref) || byOperator.contains(ref)).as(ref + " is made by someone").isTrue();
    }
    // A database Secret's username is CloudNativePG's to read (the role it sets the password of), no pod's.
    made.removeIf(ref -> ref.startsWith("Secret ccp-pg-") && ref.endsWith("/username"));
    assertThat(readers.keySet()).as("k8s-secrets makes nothing nobody reads").containsAll(made);

    Map<String, Set<String>> belongs = new TreeMap<>();
    for (Role role : Role.values()) belongs.put("Secret ccp-pg-" + role.id() + "/password", Set.of(deploymentOf(role).name()));
    belongs.put("Secret ccp-peer-seguridad/jwk", Set.of("ccp-seguridad"));
    belongs.put("Secret ccp-ssf-transmisor/jwk", Set.of("ccp-seguridad"));
    belongs.put("ConfigMap ccp-peer-jwks/jwks", Set.of("ccp-gestor", "ccp-pedidos", "ccp-inventario"));
    belongs.forEach((ref, deployments) -> assertThat(readers.get(ref)).as(ref + " is read by").isEqualTo(deployments));

    JsonObject key = new JsonObject(str(generated.stream().filter(d -> d.name().equals("ccp-peer-seguridad")).findFirst().orElseThrow().body(), "stringData", "jwk"));
    JsonObject jwks = new JsonObject(str(generated.stream().filter(d -> d.name().equals("ccp-peer-jwks")).findFirst().orElseThrow().body(), "data", "jwks"));
    assertThat(jwks.getJsonArray("keys").getList()).as("the callees verify with the caller's public key, and only that")
      .containsExactly(Jwks.publicPart(key).getMap());
    assertThat(key.getString("kid")).isEqualTo(Role.SEGURIDAD.id());
  }

  /** A deep copy of the rendered document {@code "<kind> <name>"}. */
  private static Doc copyOf(String kindAndName) {
    String[] parts = kindAndName.split(" ");
    Doc doc = Rendered.ofKind(rendered, parts[0]).stream().filter(d -> d.name().equals(parts[1])).findFirst()
      .orElseThrow(() -> new AssertionError("nothing rendered is " + kindAndName));
    org.yaml.snakeyaml.Yaml yaml = new org.yaml.snakeyaml.Yaml();
    return new Doc(doc.file(), map(yaml.load(yaml.dump(doc.body()))));
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

  /**
   * Pedidos' channel is the topic it writes, {@code escritura.realizada} (it reads none); every other P role's are
   * the topics its consumer groups read ({@link KafkaAccess#TABLE}). Seguridad's standby comes from its leadership, not
   * from partitions: its active process reads every partition, so its topics may have any number.
   */
  @Test
  @DisplayName("a P role has at most as many replicas as each topic of its channel has partitions (Pedidos: the one it writes)")
  void replicasFitThePartitions() throws IOException {
    Settings settings = Manifests.settings(clusterEnv);
    Map<String, Integer> partitions = Topics.partitions(TopicsConfig.from(settings));
    for (Role role : UP_TO_PARTITIONS) {
      KafkaGrant grant = KafkaAccess.TABLE.get(role);
      Set<String> channel = new TreeSet<>(role == Role.PEDIDOS ? grant.writes() : grant.consumes().values());
      channel.removeAll(NOT_SHARED);
      assertThat(channel).as(role.id()).isNotEmpty();
      int replicas = (Integer) at(deploymentOf(role).body(), "spec", "replicas");
      for (String topic : channel) {
        assertThat(replicas).as(role.id() + " on " + topic).isLessThanOrEqualTo(partitions.get(topic));
      }
    }
    assertThat(partitions.get(Topics.ESCRITURA_REALIZADA)).as("the chain's start shares the chain's P")
      .isEqualTo(settings.integer("kafka.partitions.chain"));
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
  @DisplayName("SondeoSalud asks each stage it probes through a Service that reaches that stage's pods on their management port")
  void sondeoSalud() {
    for (Role probed : VIEW_PROBES.get(Role.VIGILANCIA)) {
      String key = "CCP_VIGILANCIA_SONDEO_" + probed.id().toUpperCase(Locale.ROOT) + "_URLS";
      assertThat(clusterEnv).as("the cluster's %s", key).containsKey(key);
      URI url = URI.create(clusterEnv.get(key));
      Doc service = k8s.named("Service", url.getHost());
      assertThat(podLabels(deploymentOf(probed))).as("%s selects the %s pods", service.name(), probed.id())
        .containsAllEntriesOf(map(at(service.body(), "spec", "selector")));
      Object port = list(at(service.body(), "spec", "ports")).stream().filter(p -> (Integer) at(p, "port") == url.getPort())
        .findFirst().orElseThrow(() -> new AssertionError(service.name() + " has no port " + url.getPort()));
      assertThat(containerPort(container(deploymentOf(probed)), at(port, "targetPort"))).as(service.name() + " reaches")
        .isEqualTo(managementPort(probed));
      assertThat(url.getPath()).as("SondeoSalud adds /health/ready itself").isEmpty();
    }
  }

  @Test
  @DisplayName("every Deployment runs the release image that Jib builds from pom.xml")
  void image() throws Exception {
    String jibImage = jibImage();
    assertThat(jibImage).as("a release tag, never a moving -SNAPSHOT").matches(".+:\\d+\\.\\d+\\.\\d+");
    for (Doc deployment : k8s.ofKind("Deployment")) {
      assertThat(str(container(deployment), "image")).as(deployment.name()).isEqualTo(jibImage);
    }
  }

  @Test
  @DisplayName("every variable the manifests set is a CCP_<KEY> the jar reads, with a value it accepts, and the infrastructure is external")
  void environment() throws IOException {
    Set<String> valid = Manifests.confJson().fieldNames().stream().map(Settings::envName).collect(Collectors.toSet());
    assertThat(valid).as("conf/ccp.json names every key Settings knows")
      .contains("CCP_KAFKA_PASSWORD_PEDIDOS", "CCP_PG_PASSWORD_PEDIDOS", "CCP_JWT_JWKS_URL", "CCP_PEER_PRIVATE_KEY", "CCP_PEER_JWKS");
    assertThat(clusterEnv.keySet()).isSubsetOf(valid);
    for (Doc deployment : k8s.ofKind("Deployment")) {
      Map<String, Object> container = container(deployment);
      Set<String> names = new TreeSet<>(clusterEnv.keySet());
      list(container.get("env")).forEach(entry -> names.add(str(entry, "name")));
      assertThat(names).as(deployment.name()).isSubsetOf(valid)
        // Left empty, the jar would start an embedded Kafka / PostgreSQL inside the pod, or have no issuer to trust.
        .contains("CCP_KAFKA_BOOTSTRAP", "CCP_PG_HOST", "CCP_PG_PORT", "CCP_PG_DATABASE",
          "CCP_JWT_JWKS_URL", "CCP_JWT_ISSUER", "CCP_JWT_AUDIENCE");
      assertThat(settingsOf(container).embeddedKafka()).isFalse();
    }
    assertThat(k8s.ofKind("Secret")).as("no secret value is committed").isEmpty();
  }

  @Test
  @DisplayName("the demo actors and products, whose ids anyone knows, are not seeded in the cluster")
  void demoSeedOff() throws IOException {
    assertThat(clusterEnv).containsEntry("CCP_DEMO_SEED", "false");
    assertThat(Manifests.settings(clusterEnv).flag("demo.seed")).isFalse();
  }

  @Test
  @DisplayName("the broker authenticates every client and authorizes by ACL; each role using Kafka has its KafkaUser with exactly its ACLs")
  void kafkaUsers() {
    Doc kafka = k8s.ofKind("Kafka").get(0);
    for (Object listener : list(at(kafka.body(), "spec", "kafka", "listeners"))) {
      assertThat(str(listener, "authentication", "type")).as("listener " + str(listener, "name")).isEqualTo("scram-sha-512");
    }
    assertThat(str(kafka.body(), "spec", "kafka", "authorization", "type")).isEqualTo("simple");
    assertThat(at(kafka.body(), "spec", "entityOperator", "userOperator")).as("the User Operator that applies KafkaUsers").isNotNull();
    Map<String, Map<String, Set<String>>> declared = new TreeMap<>();
    for (Doc user : k8s.ofKind("KafkaUser")) {
      assertThat(str(user.body(), "metadata", "labels", "strimzi.io/cluster")).as(user.name()).isEqualTo(kafka.name());
      assertThat(str(user.body(), "spec", "authentication", "type")).as(user.name()).isEqualTo("scram-sha-512");
      assertThat(str(user.body(), "spec", "authorization", "type")).as(user.name()).isEqualTo("simple");
      Map<String, Set<String>> acls = new TreeMap<>();
      for (Object acl : list(at(user.body(), "spec", "authorization", "acls"))) {
        String resource = str(acl, "resource", "type").toUpperCase(Locale.ROOT) + ":" + str(acl, "resource", "name");
        assertThat(str(acl, "resource", "patternType")).as(user.name() + " " + resource).isEqualTo("literal");
        assertThat(str(acl, "type")).as(user.name() + " " + resource + " allows, never denies").isIn(null, "allow");
        assertThat(str(acl, "host")).as(user.name() + " " + resource).isIn(null, "*");
        Set<String> operations = acls.computeIfAbsent(resource, r -> new TreeSet<>());
        list(at(acl, "operations")).forEach(o -> operations.add(String.valueOf(o).toUpperCase(Locale.ROOT)));
      }
      declared.put(user.name(), acls);
    }
    Map<String, Map<String, Set<String>>> expected = new TreeMap<>();
    // The ACL table the embedded broker is given (ccp.app.KafkaAccess) is the one the KafkaUsers must declare.
    for (KafkaGrant grant : KafkaAccess.grants()) {
      Map<String, Set<String>> acls = new TreeMap<>();
      grant.bindings().forEach(b -> acls.computeIfAbsent(b.pattern().resourceType().name() + ":" + b.pattern().name(),
        r -> new TreeSet<>()).add(b.entry().operation().name()));
      expected.put(grant.user(), acls);
    }
    assertThat(declared).isEqualTo(expected);
  }

  @Test
  @DisplayName("every role has its own login role in PostgreSQL, owner of its schema, member of the group roles bootstrap.sql grants it")
  void databaseRoles() throws IOException {
    Doc cluster = k8s.ofKind("Cluster").get(0);
    Map<String, Object> managed = new TreeMap<>();
    list(at(cluster.body(), "spec", "managed", "roles")).forEach(r -> managed.put(str(r, "name"), r));
    Map<String, Set<String>> memberships = bootstrapMemberships();
    Set<String> groups = memberships.values().stream().flatMap(Set::stream).collect(Collectors.toCollection(TreeSet::new));
    assertThat(groups).as("the readers of the revocations and actors by every App door, at least")
      .contains("lector_revocacion", "lector_actores");
    for (String group : groups) {
      assertThat(at(managed.get(group), "login")).as(group + " is a group, nobody signs in as it").isEqualTo(false);
    }
    for (Role role : Role.values()) {
      Object managedRole = managed.get(role.id());
      assertThat(managedRole).as("a managed role " + role.id()).isNotNull();
      assertThat(at(managedRole, "login")).as(role.id()).isEqualTo(true);
      assertThat(str(managedRole, "passwordSecret", "name")).as(role.id()).isEqualTo(databaseSecret(role));
      for (String power : List.of("superuser", "createdb", "createrole", "replication", "bypassrls")) {
        assertThat(at(managedRole, power)).as(role.id() + " " + power).isIn(null, false);
      }
      Set<Object> inRoles = new TreeSet<>(list(at(managedRole, "inRoles")));
      assertThat(inRoles).as(role.id() + ": CloudNativePG revokes a membership its role does not list")
        .isEqualTo(memberships.getOrDefault(role.id(), Set.of()));
    }
    assertThat(managed.keySet()).as("no other role").hasSize(Role.values().length + groups.size());

    Doc database = k8s.ofKind("Database").get(0);
    assertThat(str(database.body(), "spec", "cluster", "name")).isEqualTo(cluster.name());
    assertThat(str(database.body(), "spec", "name")).isEqualTo(Manifests.settings(clusterEnv).text("pg.database"));
    Map<String, String> owners = new TreeMap<>();
    list(at(database.body(), "spec", "schemas")).forEach(schema -> owners.put(str(schema, "name"), str(schema, "owner")));
    Set<String> schemas = new TreeSet<>();
    for (Role role : Role.values()) schemas.addAll(role.schemas());
    assertThat(owners.keySet()).isEqualTo(schemas);
    owners.forEach((schema, owner) -> assertThat(owner).as("the owner of " + schema).isEqualTo(schema).isIn(managed.keySet()));
  }

  @Test
  @DisplayName("each Deployment reads its own role's Kafka and database passwords, and no other Secret")
  void secretsOfTheirOwnRole() {
    Set<String> kafkaUsers = k8s.ofKind("KafkaUser").stream().map(Doc::name).collect(Collectors.toSet());
    for (Role role : Role.values()) {
      Doc deployment = deploymentOf(role);
      Map<String, Object> container = container(deployment);
      Map<String, String> expected = new TreeMap<>();
      String upper = role.id().toUpperCase(Locale.ROOT);
      if (kafkaUsers.contains(kafkaPrincipal(role))) expected.put("CCP_KAFKA_PASSWORD_" + upper, kafkaPrincipal(role) + "/password");
      expected.put("CCP_PG_PASSWORD_" + upper, databaseSecret(role) + "/password");
      if (PEER_CALLERS.contains(role)) expected.put("CCP_PEER_PRIVATE_KEY", "ccp-peer-" + role.id() + "/jwk");
      // The Shared Signals transmitter signs its SETs in seguridad, the Notificador's role, and nowhere else.
      if (role == Role.SEGURIDAD) expected.put("CCP_SSF_PRIVATE_KEY", "ccp-ssf-transmisor/jwk");
      Map<String, String> fromSecrets = new TreeMap<>();
      for (Object entry : list(container.get("env"))) {
        Object ref = at(entry, "valueFrom", "secretKeyRef");
        if (ref != null) fromSecrets.put(str(entry, "name"), str(ref, "name") + "/" + str(ref, "key"));
      }
      assertThat(fromSecrets).as(deployment.name()).isEqualTo(expected);
      assertThat(list(container.get("envFrom"))).as(deployment.name()).allMatch(e -> at(e, "secretRef") == null);
      assertThat(list(at(deployment.body(), "spec", "template", "spec", "volumes"))).as(deployment.name())
        .allMatch(v -> at(v, "secret") == null && at(v, "projected") == null);
    }
  }

  @Test
  @DisplayName("no pod holds a key that signs App tokens; only the roles that call others hold their own peer key, and the callees their public keys")
  void noSigningKeyButTheIssuers() {
    assertThat(clusterEnv).doesNotContainKeys("CCP_JWT_SECRET", "CCP_PEER_PRIVATE_KEY", "CCP_SSF_PRIVATE_KEY");
    for (Role role : Role.values()) {
      Map<String, Object> container = container(deploymentOf(role));
      Set<String> names = list(container.get("env")).stream().map(e -> str(e, "name")).collect(Collectors.toSet());
      assertThat(names).as(role.id()).doesNotContain("CCP_JWT_SECRET");
      assertThat(names.contains("CCP_PEER_PRIVATE_KEY")).as(role.id() + " holds a peer private key").isEqualTo(PEER_CALLERS.contains(role));
      boolean callee = PEER_CALLERS.stream().anyMatch(caller -> VIEW_CALLS.get(caller).contains(role));
      Object jwks = list(container.get("env")).stream().filter(e -> "CCP_PEER_JWKS".equals(str(e, "name")))
        .map(e -> at(e, "valueFrom", "configMapKeyRef", "name")).findFirst().orElse(null);
      assertThat(jwks).as(role.id() + " verifies its callers' public keys").isEqualTo(callee ? "ccp-peer-jwks" : null);
    }
  }

  @Test
  @DisplayName("the example issuer's realm commits no secret, signs RS256 tokens for ccp-app with the perfil only an administrator sets")
  void keycloakRealm() throws IOException {
    JsonObject realm = new JsonObject(Files.readString(Manifests.K8S.resolve("keycloak/ccp-realm.json")));
    assertThat(secretFields(realm, "")).as("no secret, password or user is committed").isEmpty();
    assertThat(realm.getString("defaultSignatureAlgorithm")).isEqualTo("RS256");
    String base = "/realms/" + realm.getString("realm");
    assertThat(clusterEnv.get("CCP_JWT_ISSUER")).endsWith(base);
    assertThat(clusterEnv.get("CCP_JWT_JWKS_URL")).endsWith(base + "/protocol/openid-connect/certs");
    JsonObject client = realm.getJsonArray("clients").stream().map(JsonObject.class::cast)
      .filter(c -> clusterEnv.get("CCP_JWT_AUDIENCE").equals(c.getString("clientId"))).findFirst()
      .orElseThrow(() -> new AssertionError("no client for the audience " + clusterEnv.get("CCP_JWT_AUDIENCE")));
    assertThat(client.getBoolean("publicClient")).as("the App holds no client secret").isTrue();
    Map<String, JsonObject> mappers = new TreeMap<>();
    client.getJsonArray("protocolMappers").forEach(m -> mappers.put(((JsonObject) m).getString("protocolMapper"), ((JsonObject) m).getJsonObject("config")));
    assertThat(mappers.get("oidc-audience-mapper").getString("included.client.audience")).isEqualTo(client.getString("clientId"));
    assertThat(mappers.get("oidc-usermodel-attribute-mapper").getString("claim.name")).isEqualTo("perfil");
    // The web console signs in at the same realm as its own public client, with PKCE, and gets App tokens.
    assertThat(clusterEnv.get("CCP_CONSOLA_OIDC_ISSUER")).isEqualTo(clusterEnv.get("CCP_JWT_ISSUER"));
    JsonObject consola = realm.getJsonArray("clients").stream().map(JsonObject.class::cast)
      .filter(c -> clusterEnv.get("CCP_CONSOLA_OIDC_CLIENT_ID").equals(c.getString("clientId"))).findFirst()
      .orElseThrow(() -> new AssertionError("no client for the console " + clusterEnv.get("CCP_CONSOLA_OIDC_CLIENT_ID")));
    assertThat(consola.getBoolean("publicClient")).isTrue();
    assertThat(consola.getBoolean("directAccessGrantsEnabled")).as("no password grant").isFalse();
    assertThat(consola.getJsonObject("attributes").getString("pkce.code.challenge.method")).isEqualTo("S256");
    assertThat(consola.getJsonArray("redirectUris").getList()).allMatch(u -> u.toString().endsWith("/consola/"));
    Map<String, JsonObject> deLaConsola = new TreeMap<>();
    consola.getJsonArray("protocolMappers").forEach(m -> deLaConsola.put(((JsonObject) m).getString("protocolMapper"), ((JsonObject) m).getJsonObject("config")));
    assertThat(deLaConsola.get("oidc-audience-mapper").getString("included.client.audience")).isEqualTo(clusterEnv.get("CCP_JWT_AUDIENCE"));
    assertThat(deLaConsola.get("oidc-usermodel-attribute-mapper").getString("claim.name")).isEqualTo("perfil");
    JsonObject profile = new JsonObject(realm.getJsonObject("components").getJsonArray("org.keycloak.userprofile.UserProfileProvider")
      .getJsonObject(0).getJsonObject("config").getJsonArray("kc.user.profile.config").getString(0));
    JsonObject perfil = profile.getJsonArray("attributes").stream().map(JsonObject.class::cast)
      .filter(a -> "perfil".equals(a.getString("name"))).findFirst().orElseThrow();
    assertThat(perfil.getJsonObject("permissions").getJsonArray("edit").getList()).as("a user cannot raise their own profile")
      .containsExactly("admin");
    assertThat(perfil.getJsonObject("validations").getJsonObject("options").getJsonArray("options").getList())
      .as("App profiles only").containsExactlyInAnyOrder("VENDEDOR", "CONSULTA", "SEGURIDAD", "OPERADOR", "BODEGA");
  }

  @Test
  @DisplayName("every pod runs non-root under the runtime's default seccomp profile, without privilege escalation")
  void podSecurity() {
    for (Doc deployment : k8s.ofKind("Deployment")) {
      Object pod = at(deployment.body(), "spec", "template", "spec");
      assertThat(str(pod, "securityContext", "seccompProfile", "type")).as(deployment.name()).isEqualTo("RuntimeDefault");
      assertThat(at(pod, "securityContext", "runAsNonRoot")).as(deployment.name()).isEqualTo(true);
      assertThat(at(pod, "automountServiceAccountToken")).as(deployment.name()).isEqualTo(false);
      assertThat(at(container(deployment), "securityContext", "allowPrivilegeEscalation")).as(deployment.name()).isEqualTo(false);
    }
  }

  @Test
  @DisplayName("NetworkPolicies deny by default and allow each role only the view's arrows, the broker if it has a principal, the database and DNS")
  void networkPolicies() {
    List<Doc> policies = k8s.ofKind("NetworkPolicy");
    Doc kafka = k8s.ofKind("Kafka").get(0);
    String pgCluster = k8s.ofKind("Cluster").get(0).name();
    Set<String> kafkaUsers = k8s.ofKind("KafkaUser").stream().map(Doc::name).collect(Collectors.toSet());
    for (Role role : Role.values()) {
      Map<String, Object> labels = podLabels(deploymentOf(role));
      List<Doc> applying = policies.stream().filter(p -> Manifests.selects(at(p.body(), "spec", "podSelector"), labels)).toList();
      assertThat(applying).as(role.id() + ": a default deny of ingress and egress")
        .anyMatch(p -> list(at(p.body(), "spec", "policyTypes")).containsAll(List.of("Ingress", "Egress"))
          && list(at(p.body(), "spec", "ingress")).isEmpty() && list(at(p.body(), "spec", "egress")).isEmpty());
      assertThat(applying).as(role.id() + ": its own policy")
        .filteredOn(p -> role.id().equals(str(p.body(), "spec", "podSelector", "matchLabels", "app.kubernetes.io/component")))
        .hasSize(1);
      List<Object> egress = new ArrayList<>();
      List<Object> ingress = new ArrayList<>();
      applying.forEach(p -> {
        egress.addAll(list(at(p.body(), "spec", "egress")));
        ingress.addAll(list(at(p.body(), "spec", "ingress")));
      });
      assertThat(egress).as(role.id() + ": no egress to anywhere").allMatch(rule -> !list(at(rule, "to")).isEmpty()
        && list(at(rule, "to")).stream().noneMatch(peer -> at(peer, "ipBlock") != null));

      Map<Role, Set<Integer>> callees = new EnumMap<>(Role.class);
      for (Object rule : egress) {
        for (Role other : peersAmongRoles(list(at(rule, "to")))) callees.computeIfAbsent(other, r -> new TreeSet<>()).addAll(ports(rule));
      }
      Map<Role, Set<Integer>> expectedCallees = new EnumMap<>(Role.class);
      VIEW_CALLS.getOrDefault(role, Set.of()).forEach(callee -> expectedCallees.put(callee, Set.of(httpPort(callee))));
      VIEW_PROBES.getOrDefault(role, Set.of()).forEach(probed -> expectedCallees.put(probed, Set.of(managementPort(probed))));
      assertThat(callees).as(role.id() + " calls").isEqualTo(expectedCallees);

      Set<Role> callers = EnumSet.noneOf(Role.class);
      for (Object rule : ingress) {
        List<Object> from = list(at(rule, "from"));
        if (from.isEmpty()) {
          assertThat(role).as("only the App's door is open to every source").isEqualTo(Role.GATEWAY);
          assertThat(ports(rule)).containsExactly(httpPort(role));
        }
        List<Role> peers = peersAmongRoles(from);
        for (Role peer : peers) {
          int port = VIEW_PROBES.getOrDefault(peer, Set.of()).contains(role) ? managementPort(role) : httpPort(role);
          assertThat(ports(rule)).as(role.id() + " from " + peer).containsExactly(port);
        }
        callers.addAll(peers);
      }
      Set<Role> expectedCallers = EnumSet.noneOf(Role.class);
      VIEW_CALLS.forEach((caller, called) -> { if (called.contains(role)) expectedCallers.add(caller); });
      VIEW_PROBES.forEach((prober, probed) -> { if (probed.contains(role)) expectedCallers.add(prober); });
      assertThat(callers).as(role.id() + " is called by").isEqualTo(expectedCallers);

      boolean toBroker = egress.stream().anyMatch(rule -> ports(rule).contains(9092) && list(at(rule, "to")).stream()
        .anyMatch(peer -> kafka.name().equals(str(peer, "podSelector", "matchLabels", "strimzi.io/cluster"))));
      assertThat(toBroker).as(role.id() + " reaches the broker").isEqualTo(kafkaUsers.contains(kafkaPrincipal(role)));
      assertThat(egress).as(role.id() + " reaches the database").anyMatch(rule -> ports(rule).contains(5432)
        && list(at(rule, "to")).stream().anyMatch(peer -> pgCluster.equals(str(peer, "podSelector", "matchLabels", "cnpg.io/cluster"))));
      assertThat(egress).as(role.id() + " resolves names").anyMatch(rule -> ports(rule).contains(53));
    }
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

  /**
   * PostgreSQL refuses a login past {@code max_connections}. The worst moment is a rollout of every Deployment at once
   * (any change to ccp-conf or ccp-env rolls them all): each at its most replicas (the autoscaler's ceiling where one
   * owns the count) plus its surge pod. Each pod holds its client's {@code pg.pool-size} connections, Flyway's while
   * it migrates at start (the surge pod's, beside the old pods' pools), and in the roles with a leadership lock
   * ({@code Liderazgo}: seguridad, vigilancia) its dedicated connection. What the roles may use is
   * {@code max_connections} less the superuser's reserved slots, the reserved_connections of PostgreSQL 16, and
   * {@link #OPERATOR_CONNECTIONS}.
   */
  @Test
  @DisplayName("the worst rollout's PostgreSQL connections (every pod at its ceiling plus surge, × pool + Flyway + lock) fit max_connections less the reserved ones")
  void connectionsOfTheWorstRollout() throws IOException {
    Map<String, Object> parameters = map(at(k8s.ofKind("Cluster").get(0).body(), "spec", "postgresql", "parameters"));
    int maxConnections = Integer.parseInt(String.valueOf(parameters.get("max_connections")));
    assertThat(parameters).as("stated, not left to the version's default").containsKey("superuser_reserved_connections");
    int reserved = Integer.parseInt(String.valueOf(parameters.get("superuser_reserved_connections")))
      + Integer.parseInt(String.valueOf(parameters.getOrDefault("reserved_connections", "0"))) + OPERATOR_CONNECTIONS;
    int worst = 0;
    Map<String, Integer> perDeployment = new TreeMap<>();
    for (Role role : Role.values()) {
      Doc deployment = deploymentOf(role);
      Object replicas = at(deployment.body(), "spec", "replicas");
      int most = replicas != null ? (Integer) replicas : (Integer) at(hpaOf(deployment.name()).body(), "spec", "maxReplicas");
      Object surge = at(deployment.body(), "spec", "strategy", "rollingUpdate", "maxSurge");
      assertThat(surge).as(deployment.name() + ": a surge of whole pods, stated").isInstanceOf(Integer.class);
      int pods = most + (Integer) surge;
      int perPod = settingsOf(container(deployment)).integer("pg.pool-size") + 1 + (LEADERSHIP.contains(role) ? 1 : 0)
        + (OUTBOX_RELAYS.contains(role) ? PgClients.RELAY_CONNECTIONS : 0);
      perDeployment.put(deployment.name(), pods * perPod);
      worst += pods * perPod;
    }
    assertThat(worst).as("connections of the worst rollout " + perDeployment + " within max_connections " + maxConnections
      + " less " + reserved + " reserved").isLessThanOrEqualTo(maxConnections - reserved);
  }

  @Test
  @DisplayName("every container we configure has requests and limits, Strimzi's topic and user operators and its Kafka exporter included")
  void resourcesOfTheOperatorsContainers() {
    Map<String, Object> kafka = k8s.ofKind("Kafka").get(0).body();
    List<Object> configured = new ArrayList<>(List.of(
      at(kafka, "spec", "entityOperator", "topicOperator"), at(kafka, "spec", "entityOperator", "userOperator"),
      at(kafka, "spec", "kafkaExporter")));
    k8s.ofKind("KafkaNodePool").forEach(pool -> configured.add(at(pool.body(), "spec")));
    k8s.ofKind("Cluster").forEach(cluster -> configured.add(at(cluster.body(), "spec")));
    for (Object component : configured) {
      assertThat(component).isNotNull();
      for (String bound : List.of("requests", "limits")) {
        assertThat(map(at(component, "resources", bound))).as(component + " " + bound).containsKeys("cpu", "memory");
      }
    }
  }

  @Test
  @DisplayName("every pod turns the kubelet's service links off: the roles find each other by DNS name")
  void noServiceLinks() {
    for (Doc deployment : k8s.ofKind("Deployment")) {
      assertThat(at(deployment.body(), "spec", "template", "spec", "enableServiceLinks")).as(deployment.name()).isEqualTo(false);
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
    Matcher metric = Pattern.compile("\\b((?:asr\\d|vertx|ssf|http_admission)_[a-z0-9_]+)\\b").matcher(String.join("\n", expressions));
    Set<String> used = new TreeSet<>();
    while (metric.find()) used.add(metric.group(1));
    assertThat(used).contains("vertx_http_server_requests_total", "ssf_delivery_seconds_bucket", "ssf_delivery_retries_total",
      "ssf_delivery_refused_total", "ssf_reception_seconds_bucket", "http_admission_refused_total");
    for (String name : used) {
      assertThat(scrape).as("/metrics exports " + name).containsPattern("\n" + name + "[{ ]");
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

  @Test
  @DisplayName("the security consumers' lag pages: the alarm names exactly seguridad's consumer groups; a record retried past "
    + "kafka.consumer.retry-ms pages for any group; ASR-1/ASR-2 over budget page too; so does a Shared Signals stream not "
    + "receiving its SETs, on series /metrics really exports")
  void alarmas() throws Exception {
    Object rule = k8s.named("PrometheusRule", "reto2-ccp").body();
    List<Object> rules = new ArrayList<>();
    list(at(rule, "spec", "groups")).forEach(g -> rules.addAll(list(at(g, "rules"))));
    String lag = rules.stream().filter(r -> "SeguridadConsumerLag".equals(str(r, "alert"))).map(r -> str(r, "expr")).findFirst()
      .orElseThrow(() -> new AssertionError("no SeguridadConsumerLag alert"));
    Matcher groups = Pattern.compile("group=~\"([^\"]+)\"").matcher(lag);
    assertThat(groups.find()).as(lag).isTrue();
    assertThat(Set.of(groups.group(1).split("\\|"))).isEqualTo(KafkaAccess.TABLE.get(Role.SEGURIDAD).consumes().keySet());
    assertThat(lag).contains("kafka_consumer_lag");
    Object stuck = rules.stream().filter(r -> str(r, "expr").contains("kafka_consumer_retrying_seconds")).findFirst()
      .orElseThrow(() -> new AssertionError("no alert on kafka_consumer_retrying_seconds"));
    // Every group: the Bandeja retries until done as seguridad's do, and any group waits out an outage. At retry-ms a
    // group that dead-letters has set its record aside, so it pages only for what nothing else reports.
    long retrySeconds = Manifests.settings(clusterEnv).integer("kafka.consumer.retry-ms") / 1000;
    assertThat(str(stuck, "expr")).doesNotContain("group=").endsWith("> " + retrySeconds);
    assertThat(str(stuck, "for")).as("held a while, past a dead-lettering group's last back-off").isNotBlank();
    assertThat(str(stuck, "labels", "severity")).isEqualTo("critical");
    for (int asr = 1; asr <= 2; asr++) {
      String name = "asr" + asr;
      double budgetSeconds = Manifests.settings(clusterEnv).integer(name + ".budget-ms") / 1000.0;
      assertThat(rules).as(name).anyMatch(r -> str(r, "expr").contains(name + "_seconds_bucket")
        && str(r, "expr").endsWith("> " + (budgetSeconds == Math.rint(budgetSeconds) ? String.valueOf((long) budgetSeconds) : String.valueOf(budgetSeconds))));
    }
    String ssf = rules.stream().filter(r -> "SsfDeliveryFailing".equals(str(r, "alert"))).map(r -> str(r, "expr")).findFirst()
      .orElseThrow(() -> new AssertionError("no SsfDeliveryFailing alert"));
    Matcher serie = Pattern.compile("\\b(ssf_[a-z0-9_]+)\\b").matcher(ssf);
    Set<String> series = new TreeSet<>();
    while (serie.find()) series.add(serie.group(1));
    assertThat(series).containsExactlyInAnyOrder("ssf_delivery_refused_total", "ssf_delivery_retries_total", "ssf_delivery_seconds_count");
    String scrape;
    try (RunningManagement management = RunningManagement.start()) {
      management.recordEveryAsr(Manifests.settings(clusterEnv));
      scrape = management.body("/metrics");
    }
    for (String name : series) {
      assertThat(scrape).as("/metrics exports " + name + " per stream").containsPattern("\n" + name + "\\{[^}]*stream=");
    }
  }

  private static Doc deploymentOf(Role role) {
    return k8s.named("Deployment", "ccp-" + role.id());
  }

  /** The paths of fields that would carry a secret: credentials, passwords, client secrets, users. */
  private static List<String> secretFields(Object node, String path) {
    List<String> found = new ArrayList<>();
    if (node instanceof JsonObject object) {
      for (String field : object.fieldNames()) {
        String lower = field.toLowerCase(Locale.ROOT);
        if (lower.contains("secret") || lower.contains("password") || lower.contains("credential") || lower.equals("users")
          || lower.equals("privatekey")) {
          found.add(path + "/" + field);
        }
        found.addAll(secretFields(object.getValue(field), path + "/" + field));
      }
    } else if (node instanceof io.vertx.core.json.JsonArray array) {
      for (int i = 0; i < array.size(); i++) found.addAll(secretFields(array.getValue(i), path + "/" + i));
    }
    return found;
  }

  private static String kafkaPrincipal(Role role) {
    return "ccp-" + role.id();
  }

  private static String databaseSecret(Role role) {
    return "ccp-pg-" + role.id();
  }

  /** The group roles db/bootstrap.sql makes each login a member of: its {@code GRANT group, … TO login, …;} lines. */
  private static Map<String, Set<String>> bootstrapMemberships() throws IOException {
    String sql = Files.readString(Path.of("src", "main", "resources", "db", "bootstrap.sql"));
    Matcher grant = Pattern.compile("(?m)^GRANT ([a-z_]+(?:, [a-z_]+)*) TO ([a-z_]+(?:, [a-z_]+)*);").matcher(sql);
    Map<String, Set<String>> memberships = new TreeMap<>();
    while (grant.find()) {
      for (String login : grant.group(2).split(", ")) {
        memberships.computeIfAbsent(login, l -> new TreeSet<>()).addAll(List.of(grant.group(1).split(", ")));
      }
    }
    return memberships;
  }

  private static int httpPort(Role role) {
    return containerPort(container(deploymentOf(role)), "http");
  }

  private static int managementPort(Role role) {
    return containerPort(container(deploymentOf(role)), "management");
  }

  private static Map<String, Object> podLabels(Doc deployment) {
    return map(at(deployment.body(), "spec", "template", "metadata", "labels"));
  }

  /** The roles whose pods these NetworkPolicy peers pick in the namespace (peers in other namespaces pick none). */
  private static List<Role> peersAmongRoles(List<Object> peers) {
    List<Role> roles = new ArrayList<>();
    for (Object peer : peers) {
      if (at(peer, "podSelector") == null || at(peer, "namespaceSelector") != null) continue;
      for (Role role : Role.values()) {
        if (Manifests.selects(at(peer, "podSelector"), podLabels(deploymentOf(role)))) roles.add(role);
      }
    }
    return roles;
  }

  private static Set<Integer> ports(Object rule) {
    return list(at(rule, "ports")).stream().map(p -> (Integer) at(p, "port")).collect(Collectors.toCollection(TreeSet::new));
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
