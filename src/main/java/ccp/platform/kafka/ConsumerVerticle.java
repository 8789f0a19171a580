package ccp.platform.kafka;

import ccp.platform.http.Health;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;

/**
 * A verticle that is one consumer thread of the view: a {@link ReliableConsumer} of one group and topic, ready once
 * the group has taken it in, its lag and how long it has been retrying a failing record gauges
 * ({@code kafka_consumer_lag}, {@code kafka_consumer_retrying_seconds}), with the process's producer for its dead letters
 * and for what it publishes itself. While the process is not ready (its database or broker down), a record that fails
 * pauses it.
 */
public abstract class ConsumerVerticle extends VerticleBase {

  private final KafkaConfig kafka;
  private final Health health;
  private final MeterRegistry registry;
  private final String group;
  private final String topic;
  private final Priority priority;
  /** The readiness check's name: the group's, with the member's number after the first of several in one process. */
  private final String member;
  private EventPublisher publisher;
  private ReliableConsumer consumer;
  private Gauge lag;
  private Gauge retrying;
  private Gauge yielding;

  /** {@code priority}: its place among the consumers of its process ({@link Priority}). */
  protected ConsumerVerticle(KafkaConfig kafka, Health health, MeterRegistry registry, String group, String topic,
                             Priority priority) {
    this(kafka, health, registry, group, topic, priority, 0);
  }

  /** {@code member}: this one's number among the group's members that its process runs, from 0. */
  protected ConsumerVerticle(KafkaConfig kafka, Health health, MeterRegistry registry, String group, String topic,
                             Priority priority, int member) {
    this.member = member == 0 ? group : group + "#" + member;
    this.kafka = kafka;
    this.priority = priority;
    this.health = health;
    this.registry = registry;
    this.group = group;
    this.topic = topic;
  }

  /** Builds what {@link #handle} needs; runs on this verticle's context before the subscription. */
  protected abstract void prepare();

  /** Handles one record; the future completes when its effect is durable. */
  protected abstract Future<?> handle(Envelope event);

  /**
   * Whether this group has anything to do with the record, from its key and headers alone: a group that shares its
   * topic with others lets theirs pass unparsed. Everything, unless a subclass says otherwise.
   */
  protected boolean concierne(KafkaConsumerRecord<String, String> record) {
    return true;
  }

  /**
   * What becomes of a record that keeps failing while the process is ready: by default a dead letter after
   * {@code kafka.consumer.retry-ms}, so that one record cannot hold its partition back for ever; a consumer that must
   * fail closed says {@link ReliableConsumer.RetryPolicy#UNTIL_DONE}, with its reason.
   */
  protected ReliableConsumer.RetryPolicy retryPolicy() {
    return ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED;
  }

  /** Releases what {@link #prepare} built, once the consumer committed and left its group. */
  protected void release() {
  }

  protected final EventPublisher publisher() {
    return publisher;
  }

  @Override
  public final Future<?> start() {
    publisher = EventPublisher.create(vertx, kafka);
    prepare();
    consumer = new ReliableConsumer(vertx, kafka, group, topic, publisher, this::handle, this::concierne, retryPolicy(),
      health::ready).priority(priority);
    health.readyWhen(member, context, consumer::readiness);
    return consumer.start().onSuccess(x -> {
      lag = consumer.lagOn(registry);
      retrying = consumer.retryingOn(registry);
      if (priority == Priority.CHAIN) yielding = consumer.yieldingOn(registry);
    });
  }

  @Override
  public final Future<?> stop() {
    health.forget(member);
    if (lag != null) registry.remove(lag);
    if (retrying != null) registry.remove(retrying);
    if (yielding != null) registry.remove(yielding);
    return consumer.stop().onComplete(stopped -> release()).eventually(publisher::close);
  }
}
