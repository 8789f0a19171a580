package ccp.cadena;

import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.ReliableConsumer;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.role.RoleContext;
import ccp.platform.metrics.AsrTimers;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * ConsumidorBandeja (R10–R11 and the red arrows): files each escalation from {@code cola.bandeja} and each dead letter
 * of {@code cola.fallidos} as an item of the Bandeja, once per event id (a dead letter's names its record and group,
 * so a poison record redelivered to its group is one item). ASR-4 for an escalated stage ends here, when the item is
 * filed (R11), and so does the joint ASR-3+4 budget (the stage stopped → the Bandeja holds it): both measured on the
 * database's clock, from the times the escalation carries, once per item.
 */
final class ConsumidorBandeja extends ConsumerVerticle {

  private final RoleContext role;
  private final CadenaConfig config;
  private final String topic;
  private RepositorioBandeja bandeja;
  private Timer asr4;
  private Timer asr34;

  private ConsumidorBandeja(RoleContext role, CadenaConfig config, String group, String topic) {
    super(role.kafka(), role.health(), role.registry(), group, topic, Priority.CHAIN);
    this.role = role;
    this.config = config;
    this.topic = topic;
  }

  static ConsumidorBandeja escaladas(RoleContext role, CadenaConfig config) {
    return new ConsumidorBandeja(role, config, "cola.bandeja", Topics.CADENA_ESCALADA);
  }

  static ConsumidorBandeja fallidos(RoleContext role, CadenaConfig config) {
    return new ConsumidorBandeja(role, config, "cola.bandeja.fallidos", Topics.COLA_FALLIDOS);
  }

  @Override
  protected void prepare() {
    bandeja = new RepositorioBandeja(role.sql());
    asr4 = AsrTimers.asr4(role.registry(), config.asr4Budget());
    asr34 = AsrTimers.asr34(role.registry(), config.asr3Budget().plus(config.asr4Budget()));
  }

  /**
   * The Bandeja is where failures end: a dead letter of an escalation would come back to this same table as another
   * item, and one of {@code cola.fallidos} has nowhere further to go. What it cannot file waits, its lag in sight.
   */
  @Override
  protected ReliableConsumer.RetryPolicy retryPolicy() {
    return ReliableConsumer.RetryPolicy.UNTIL_DONE;
  }

  @Override
  protected Future<Void> handle(Envelope event) {
    UUID id = UUID.fromString(event.id());
    if (Topics.COLA_FALLIDOS.equals(topic)) {
      return bandeja.archivarFallido(id, event.data().copy().put("type", event.type()).put("source", event.source()));
    }
    EventTypes.require(event, EventTypes.ESCALADA, Topics.CADENA_ESCALADA);
    return bandeja.archivarEscalada(id, UUID.fromString(event.textOf("pedido")), Etapa.valueOf(event.textOf("etapa")), event.data())
      .map(archivada -> {
        archivada.ifPresent(en -> {
          medir(asr4, event.data().getString("reintento_desde"), en);
          medir(asr34, event.data().getString("en_curso_desde"), en);
        });
        return null;
      });
  }

  /** An escalation published before these times travelled with it carries none: it is filed, not measured. */
  private static void medir(Timer timer, String desde, OffsetDateTime hasta) {
    if (desde != null) timer.record(Duration.between(Instant.parse(desde), hasta.toInstant()));
  }
}
