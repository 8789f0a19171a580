package ccp.platform.kafka;

import org.apache.kafka.clients.admin.Admin;
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
 * have one partition: its active process alone reads them ({@code ccp.seguridad.LiderazgoSeguridad}), so more would
 * share nothing. The chain's have P ({@link TopicsConfig#chainPartitions()}), the most replicas of a chain role that
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

  /** Creates the missing topics, as the broker's operator; existing ones are left as they are. */
  static void ensure(Admin admin, TopicsConfig config) throws InterruptedException, ExecutionException, TimeoutException {
    short replication = (short) config.replicationFactor();
    Set<String> existing = admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
    List<NewTopic> missing = partitions(config).entrySet().stream()
      .filter(e -> !existing.contains(e.getKey()))
      .map(e -> new NewTopic(e.getKey(), e.getValue(), replication))
      .toList();
    if (missing.isEmpty()) return;
    LOG.info("Creating topics {}", missing.stream().map(NewTopic::name).toList());
    admin.createTopics(missing).all().get(TIMEOUT_S, TimeUnit.SECONDS);
  }
}
