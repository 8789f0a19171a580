package ccp.cadena;

import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.ReliableConsumer;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

import java.util.UUID;

/**
 * ConsumidorBandeja (R10–R11 and the red arrows): files each escalation from {@code cola.bandeja} and each dead letter
 * of {@code cola.fallidos} as an item of the Bandeja, once per event id (a dead letter's names its record and group,
 * so a poison record redelivered to its group is one item).
 */
final class ConsumidorBandeja extends ConsumerVerticle {

  private final RoleContext role;
  private final String topic;
  private RepositorioCadena cadenas;

  private ConsumidorBandeja(RoleContext role, String group, String topic) {
    super(role.kafka(), role.health(), role.registry(), group, topic);
    this.role = role;
    this.topic = topic;
  }

  static ConsumidorBandeja escaladas(RoleContext role) {
    return new ConsumidorBandeja(role, "cola.bandeja", Topics.CADENA_ESCALADA);
  }

  static ConsumidorBandeja fallidos(RoleContext role) {
    return new ConsumidorBandeja(role, "cola.bandeja.fallidos", Topics.COLA_FALLIDOS);
  }

  @Override
  protected void prepare() {
    cadenas = new RepositorioCadena(role.sql());
  }

  /** {@link Priority#CHAIN}: the chain yields to the security consumers of its process when they are behind (issue 16). */
  @Override
  protected Priority priority() {
    return Priority.CHAIN;
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
      return cadenas.archivarFallido(id, event.data().copy().put("type", event.type()).put("source", event.source()));
    }
    EventTypes.require(event, EventTypes.ESCALADA, Topics.CADENA_ESCALADA);
    return cadenas.archivarEscalada(id, UUID.fromString(event.textOf("pedido")), Etapa.valueOf(event.textOf("etapa")), event.data());
  }
}
