package ccp.platform.kafka;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.Map;

/**
 * How a process's security consumers tell its chain's consumers that they are behind: on the process's own event bus
 * (local delivery only: a consumer yields to those it shares cores with, never to another pod's). A security consumer
 * is behind while it takes records that waited longer than {@code kafka.consumer.yield-delay-ms} since they were
 * produced, or holds its in-flight limit; it says so every {@link #PERIOD_MS} while it is, and once when it no longer
 * is. A chain consumer yields while one of them said so within {@link #STALE_MS}: a member that stopped or hung does
 * not hold the chain back for longer.
 */
final class SecurityPressure {

  static final String ADDRESS = "ccp.kafka.security-pressure";
  static final long PERIOD_MS = 100;
  static final long STALE_MS = 1_000;

  private SecurityPressure() {}

  /** A security consumer's side; confined to its context. */
  static final class Reporter {

    private final Vertx vertx;
    private final String member;
    private final long yieldDelayMs;
    private long worstDelayMs;
    private boolean reported;

    Reporter(Vertx vertx, String member, long yieldDelayMs) {
      this.vertx = vertx;
      this.member = member;
      this.yieldDelayMs = yieldDelayMs;
    }

    /** A record produced at {@code producedAtMs} (its timestamp) is taken now. */
    void taken(long producedAtMs) {
      worstDelayMs = Math.max(worstDelayMs, System.currentTimeMillis() - producedAtMs);
    }

    /** Every {@link #PERIOD_MS}: {@code saturated}, the consumer holds its in-flight limit. */
    void report(boolean saturated) {
      boolean behind = saturated || worstDelayMs > yieldDelayMs;
      worstDelayMs = 0;
      if (behind || reported) {
        vertx.eventBus().publish(ADDRESS, new JsonObject().put("member", member).put("behind", behind));
      }
      reported = behind;
    }

    void stop() {
      if (reported) vertx.eventBus().publish(ADDRESS, new JsonObject().put("member", member).put("behind", false));
      reported = false;
    }
  }

  /** A chain consumer's side; confined to its context. */
  static final class Listener {

    private final Map<String, Long> behind = new HashMap<>();
    private final MessageConsumer<JsonObject> subscription;

    Listener(Vertx vertx, Runnable changed) {
      subscription = vertx.eventBus().<JsonObject>localConsumer(ADDRESS, message -> {
        JsonObject body = message.body();
        boolean was = !behind.isEmpty();
        if (body.getBoolean("behind")) behind.put(body.getString("member"), System.nanoTime());
        else behind.remove(body.getString("member"));
        if (was != !behind.isEmpty()) changed.run();
      });
    }

    /** Whether a security consumer of the process is behind now. */
    boolean yielding() {
      long now = System.nanoTime();
      behind.values().removeIf(at -> now - at > STALE_MS * 1_000_000);
      return !behind.isEmpty();
    }

    void stop() {
      subscription.unregister();
    }
  }
}
