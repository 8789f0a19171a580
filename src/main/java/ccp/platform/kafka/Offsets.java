package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.OffsetAndMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What a consumer may commit: per partition held, one past the highest <em>contiguous</em> finished record, so that a
 * crash never skips an unfinished one; and how many fetched records wait for their commit (unfinished, or finished
 * behind an unfinished one). Confined to the consumer's event loop.
 */
final class Offsets {

  private static final Logger LOG = LoggerFactory.getLogger(Offsets.class);

  private final Map<TopicPartition, Partition> held = new HashMap<>();
  private int waiting;
  private Future<Void> lastCommit = Future.succeededFuture();

  /** A fetched record's place in its partition's line. */
  static final class Ticket {
    private final TopicPartition partition;
    private final Partition line;
    private final long offset;
    private boolean done;

    private Ticket(TopicPartition partition, Partition line, long offset) {
      this.partition = partition;
      this.line = line;
      this.offset = offset;
    }
  }

  void assigned(Set<TopicPartition> partitions) {
    for (TopicPartition tp : partitions) held.putIfAbsent(tp, new Partition());
  }

  /** Its records no longer count: they are the new owner's. */
  void revoked(Set<TopicPartition> partitions) {
    for (TopicPartition tp : partitions) {
      Partition gone = held.remove(tp);
      if (gone != null) waiting -= gone.pending.size();
    }
  }

  /** A record fetched: it waits for its commit until it and every record before it are done. */
  Ticket fetched(TopicPartition partition, long offset) {
    Partition line = held.computeIfAbsent(partition, tp -> new Partition());
    Ticket ticket = new Ticket(partition, line, offset);
    line.pending.addLast(ticket);
    waiting++;
    return ticket;
  }

  /** The record is handled (or passed over): the commit point moves past it once all before it are done too. */
  void done(Ticket ticket) {
    ticket.done = true;
    int committable = 0;
    Partition line = ticket.line;
    while (!line.pending.isEmpty() && line.pending.peekFirst().done) {
      line.committable = line.pending.pollFirst().offset + 1;
      committable++;
    }
    // A partition revoked meanwhile no longer counts: its records were taken off when it went.
    if (held.get(ticket.partition) == line) waiting -= committable;
  }

  /** Fetched records of the partitions held whose commit waits. */
  int waiting() {
    return waiting;
  }

  /**
   * Where the group stands on {@code partition}: past what is handled, else at the first record fetched since the
   * assignment (fetching starts at the committed offset); -1 when nothing was fetched yet or it is not held.
   */
  long standing(TopicPartition partition) {
    Partition line = held.get(partition);
    if (line == null) return -1;
    long handled = Math.max(line.committable, line.committed);
    if (handled >= 0) return handled;
    return line.pending.isEmpty() ? -1 : line.pending.peekFirst().offset;
  }

  /**
   * Commits, through {@code client} (the Kafka client's commit), each partition's point if it moved; never fails: a
   * failed commit is logged, and the next one carries its offsets. One at a time is the caller's to keep.
   */
  Future<Void> commit(Function<Map<TopicPartition, OffsetAndMetadata>, Future<?>> client, String group) {
    Map<TopicPartition, OffsetAndMetadata> offsets = toCommit();
    if (offsets.isEmpty()) return Future.succeededFuture();
    lastCommit = client.apply(offsets)
      .onSuccess(done -> committed(offsets))
      .onFailure(err -> LOG.warn("Group {}: commit of {} failed ({}); it will be retried", group, offsets.keySet(), err.toString()))
      .<Void>mapEmpty()
      .otherwiseEmpty();
    return lastCommit;
  }

  /** The last commit asked, done or not. */
  Future<Void> lastCommit() {
    return lastCommit;
  }

  /** What to commit now: the partitions whose commit point moved since their last commit. */
  private Map<TopicPartition, OffsetAndMetadata> toCommit() {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    held.forEach((tp, line) -> {
      if (line.committable > line.committed) offsets.put(tp, new OffsetAndMetadata(line.committable, ""));
    });
    return offsets;
  }

  /** The broker took {@code offsets}. */
  private void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
    offsets.forEach((tp, o) -> {
      Partition line = held.get(tp);
      if (line != null) line.committed = Math.max(line.committed, o.getOffset());
    });
  }

  /** Records of one partition in fetch order. */
  private static final class Partition {
    private final ArrayDeque<Ticket> pending = new ArrayDeque<>();
    private long committable = -1;
    private long committed = -1;
  }
}
