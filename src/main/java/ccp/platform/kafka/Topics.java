package ccp.platform.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The topics of DESIGN.md §3, with the partitions each consumer's scaling needs; keys give each consumer the order it
 * needs (docs/design.md, "Topics: keys, partitions and the order each consumer needs"). The topics only seguridad reads
 * have {@link TopicsConfig#securityPartitions()}: its active process alone reads them
 * ({@code ccp.seguridad.LiderazgoSeguridad}), with one Verificador consumer per partition of {@code sesion.abierta}, each
 * on its own event loop. The chain's have P ({@link TopicsConfig#chainPartitions()}), the most replicas of a chain role that
 * can share the work — {@code escritura.realizada} too: it starts every order's chain (steps 1–4), which must scale
 * with P, while seguridad's Detector, the other reader, reads all its partitions in the active process.
 */
public final class Topics {

  public static final String SESION_ABIERTA = "sesion.abierta";
  public static final String ALERTA_SEGURIDAD = "alerta.seguridad";
  public static final String ESCRITURA_REALIZADA = "escritura.realizada";
  public static final String ETAPA_EJECUTAR = "etapa.ejecutar";
  public static final String ETAPA_COMPLETADA = "etapa.completada";
  public static final String PEDIDO_LISTO = "pedido.listo";
  public static final String COLA_REINTENTOS = "cola.reintentos";
  public static final String CADENA_ESCALADA = "cadena.escalada";
  public static final String COLA_FALLIDOS = "cola.fallidos";

  private static final Logger LOG = LoggerFactory.getLogger(Topics.class);
  private static final long TIMEOUT_S = 30;

  private Topics() {}

  /** Topic name → partitions. */
  public static Map<String, Integer> partitions(TopicsConfig config) {
    int security = config.securityPartitions();
    Map<String, Integer> topics = new LinkedHashMap<>();
    topics.put(SESION_ABIERTA, security);
    topics.put(ALERTA_SEGURIDAD, security);
    int chain = config.chainPartitions();
    topics.put(ESCRITURA_REALIZADA, chain);
    topics.put(ETAPA_EJECUTAR, chain);
    topics.put(ETAPA_COMPLETADA, chain);
    topics.put(PEDIDO_LISTO, chain);
    topics.put(COLA_REINTENTOS, chain);
    topics.put(CADENA_ESCALADA, chain);
    topics.put(COLA_FALLIDOS, 1);
    return topics;
  }

  /** Creates the missing topics and grows those with fewer partitions than the code asks for, as the broker's operator. */
  static void ensure(Admin admin, TopicsConfig config) throws InterruptedException, ExecutionException, TimeoutException {
    ensure(admin, partitions(config), (short) config.replicationFactor());
  }

  /**
   * A topic is never shrunk (Kafka cannot) nor re-replicated. Growing moves some keys to new partitions, so a key's
   * records written before and after may be read out of order once: every consumer of these topics tolerates that
   * (docs/design.md, "Topics: keys, partitions and the order each consumer needs").
   */
  static void ensure(Admin admin, Map<String, Integer> wanted, short replication)
      throws InterruptedException, ExecutionException, TimeoutException {
    Set<String> existing = admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
    List<NewTopic> missing = wanted.entrySet().stream()
      .filter(e -> !existing.contains(e.getKey()))
      .map(e -> new NewTopic(e.getKey(), e.getValue(), replication))
      .toList();
    if (!missing.isEmpty()) {
      LOG.info("Creating topics {}", missing.stream().map(NewTopic::name).toList());
      admin.createTopics(missing).all().get(TIMEOUT_S, TimeUnit.SECONDS);
    }
    List<String> present = wanted.keySet().stream().filter(existing::contains).toList();
    if (present.isEmpty()) return;
    Map<String, NewPartitions> grow = new LinkedHashMap<>();
    admin.describeTopics(present).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS).forEach((name, topic) -> {
      if (topic.partitions().size() < wanted.get(name)) grow.put(name, NewPartitions.increaseTo(wanted.get(name)));
    });
    if (grow.isEmpty()) return;
    LOG.warn("Growing topics to the partitions the code asks for: {}", grow.entrySet().stream()
      .map(e -> e.getKey() + " → " + e.getValue().totalCount()).toList());
    admin.createPartitions(grow).all().get(TIMEOUT_S, TimeUnit.SECONDS);
  }
}
