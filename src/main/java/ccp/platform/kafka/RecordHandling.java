package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;

/**
 * One record's handling, from its value to a durable effect or a dead letter: the envelope parsed and handed to the
 * handler, a transient failure retried ({@link Retries}); a {@link PoisonMessageException} — an unparseable envelope,
 * a handler that throws before any I/O, or a record failing past its retries — sends it to {@code cola.fallidos}
 * ({@link DeadLetters}), which is published until it is. The future completes once the record needs nothing more.
 */
final class RecordHandling {

  private final ReliableConsumer.Handler handler;
  private final ReliableConsumer.RetryPolicy policy;
  private final Retries retries;
  private final DeadLetters deadLetters;

  RecordHandling(ReliableConsumer.Handler handler, ReliableConsumer.RetryPolicy policy, Retries retries, DeadLetters deadLetters) {
    this.handler = handler;
    this.policy = policy;
    this.retries = retries;
    this.deadLetters = deadLetters;
  }

  /** A record's name in the logs and in its dead letter's subject: {@code topic-partition@offset}. */
  static String name(KafkaConsumerRecord<String, String> record) {
    return record.topic() + "-" + record.partition() + "@" + record.offset();
  }

  Future<Void> handle(KafkaConsumerRecord<String, String> record) {
    return retries.run(() -> attempt(record), record, policy)
      .recover(err -> err instanceof PoisonMessageException
        // The dead letter itself is published until it is: it is how the failure reaches a person.
        ? retries.run(() -> deadLetters.send(record, err.getMessage()), record, ReliableConsumer.RetryPolicy.UNTIL_DONE)
        : Future.failedFuture(err))
      .andThen(ended -> retries.ended(record));
  }

  private Future<Void> attempt(KafkaConsumerRecord<String, String> record) {
    try {
      return handler.handle(Envelope.parse(record.value())).mapEmpty();
    } catch (PoisonMessageException e) {
      return Future.failedFuture(e);
    } catch (RuntimeException e) {
      // Thrown before any I/O, so deterministic for this record: no retry can help.
      return Future.failedFuture(new PoisonMessageException("handler rejected the record: " + e));
    }
  }
}
