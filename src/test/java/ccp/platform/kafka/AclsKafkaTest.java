package ccp.platform.kafka;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.json.JsonObject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The broker is a trust boundary (DESIGN.md §10): these tests attack it as a process that can reach it would, and
 * the broker, not the consumers, says no.
 */
@DisplayName("Kafka: only a role's own principal may write its topics; anyone else is refused by the broker")
class AclsKafkaTest {

  private static RunningApp app;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.allOf(Role.class));
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("a client without credentials can neither produce nor read what is there")
  void withoutCredentials() throws Exception {
    Settings settings = app.settings();
    String topic = "prueba-acl-" + UUID.randomUUID();
    try (Admin admin = Admin.create(new HashMap<>(Topic.admin(settings)))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }
    Map<String, Object> operator = new HashMap<>(Topic.admin(settings));
    send(operator, topic, "marca", "lo que hay");

    Map<String, Object> anonymous = new HashMap<>(Map.of("bootstrap.servers", settings.text("kafka.bootstrap")));
    assertThatThrownBy(() -> send(anonymous, topic, "k", "anónimo")).as("an unauthenticated produce")
      .hasRootCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
    await("an unauthenticated consumer reads nothing").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15))
      .until(() -> readAll(anonymous, topic).isEmpty());
    assertThat(readAll(operator, topic)).as("what the operator, authenticated, reads").containsExactly("lo que hay");
  }

  @Test
  @DisplayName("a client that names a role's principal with a wrong password is refused when it authenticates")
  void wrongPassword() {
    Settings settings = app.settings();
    Map<String, Object> impostor = new HashMap<>(KafkaConfig.client(settings.text("kafka.bootstrap"), "ccp-pedidos", "not-its-password"));
    assertThatThrownBy(() -> send(impostor, Topics.ESCRITURA_REALIZADA, "k", "{}"))
      .hasRootCauseInstanceOf(SaslAuthenticationException.class);
  }

  @Test
  @DisplayName("the pedidos principal cannot produce to alerta.seguridad or etapa.completada")
  void pedidosWritesOnlyItsOwnTopic() {
    Map<String, Object> pedidos = new HashMap<>(Topic.as(app.settings(), Role.PEDIDOS));
    for (String topic : List.of(Topics.ALERTA_SEGURIDAD, Topics.ETAPA_COMPLETADA)) {
      assertThatThrownBy(() -> send(pedidos, topic, "k", "{}")).as(topic)
        .hasRootCauseInstanceOf(TopicAuthorizationException.class);
    }
  }

  @Test
  @DisplayName("the inventario principal publishes its stock adjustments on escritura.realizada but no alert; the other stages cannot write it")
  void inventarioWritesItsAdjustmentsOnly() {
    Settings settings = app.settings();
    send(new HashMap<>(Topic.as(settings, Role.INVENTARIO)), Topics.ESCRITURA_REALIZADA, "k", "{}");
    assertThatThrownBy(() -> send(new HashMap<>(Topic.as(settings, Role.INVENTARIO)), Topics.ALERTA_SEGURIDAD, "k", "{}"))
      .hasRootCauseInstanceOf(TopicAuthorizationException.class);
    for (Role stage : List.of(Role.FACTURACION, Role.DESPACHO)) {
      assertThatThrownBy(() -> send(new HashMap<>(Topic.as(settings, stage)), Topics.ESCRITURA_REALIZADA, "k", "{}")).as(stage.id())
        .hasRootCauseInstanceOf(TopicAuthorizationException.class);
    }
  }

  @Test
  @DisplayName("a forged escritura.realizada from the gestor or the cadena principal is refused, and the actor it names is not revoked")
  void forgedWriteRevokesNoOne() {
    Settings settings = app.settings();
    // A real order's write event, whose actor the forger replaces: the security area's own account.
    String vendedor = Db.newActor(settings, "VENDEDOR");
    String pedido = api.pedidoAceptado(vendedor);
    String real = await("the order's write event").atMost(Duration.ofSeconds(10))
      .until(() -> Topic.read(settings, Topics.ESCRITURA_REALIZADA, r -> pedido.equals(r.key())), l -> !l.isEmpty()).get(0).value();
    String victima = Db.newActor(settings, "SEGURIDAD");
    for (Role forger : List.of(Role.GESTOR, Role.CADENA)) {
      Map<String, Object> config = new HashMap<>(Topic.as(settings, forger));
      assertThatThrownBy(() -> send(config, Topics.ESCRITURA_REALIZADA, pedido, conActor(real, victima)))
        .as("written as ccp-" + forger.id()).hasRootCauseInstanceOf(TopicAuthorizationException.class);
    }

    // The same record from the writing service's own principal is acted upon: the forged one was refused for who sent it.
    String testigo = Db.newActor(settings, "SEGURIDAD");
    send(new HashMap<>(Topic.as(settings, Role.PEDIDOS)), Topics.ESCRITURA_REALIZADA, pedido, conActor(real, testigo));
    await("the witness, written by pedidos, revoked").atMost(Duration.ofSeconds(15)).until(() -> revocado(testigo));

    await("the victim stays in force").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
      .until(() -> !revocado(victima) && Http.get(app.gatewayUrl() + "/v1/alertas?actor=" + victima, api.token(victima)).status() == 200);
  }

  private static boolean revocado(String actor) {
    return Db.count(app.settings(), "SELECT count(*) FROM seguridad.lista_revocacion WHERE actor = ?", actor) > 0;
  }

  /** {@code escritura} as a write of {@code actor}'s, under a write id of its own. */
  private static String conActor(String escritura, String actor) {
    Envelope original = Envelope.parse(escritura);
    String id = UUID.randomUUID().toString();
    JsonObject data = original.data().copy().put("id_escritura", id).put("actor", actor);
    return new Envelope(id, original.type(), original.source(), original.time(), original.subject(), data).encode();
  }

  private static void send(Map<String, Object> config, String topic, String key, String value) {
    Map<String, Object> producer = new HashMap<>(config);
    producer.put("acks", "all");
    producer.put("max.block.ms", "5000");
    producer.put("delivery.timeout.ms", "10000");
    producer.put("request.timeout.ms", "5000");
    try (KafkaProducer<String, String> client = new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
      client.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** What partition 0 of {@code topic} holds, as one poll of a few seconds sees it. */
  private static List<String> readAll(Map<String, Object> config, String topic) {
    Map<String, Object> consumer = new HashMap<>(config);
    consumer.put("enable.auto.commit", "false");
    try (KafkaConsumer<String, String> client = new KafkaConsumer<>(consumer, new StringDeserializer(), new StringDeserializer())) {
      TopicPartition partition = new TopicPartition(topic, 0);
      client.assign(List.of(partition));
      client.seekToBeginning(List.of(partition));
      return client.poll(Duration.ofSeconds(3)).records(partition).stream().map(r -> r.value()).toList();
    }
  }
}
