package ccp.platform.http;

import io.vertx.core.Future;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * When an issuer's JWK Set is read again because a token names a key id the set lacks (the issuer rotated its keys
 * in): at once, and then not again for {@link #MIN_INTERVAL_MS}, however many tokens name unknown key ids, so an
 * unauthenticated sender cannot make us hammer the issuer. A token that arrives while a re-read runs waits for it. One
 * that arrives while the bound holds is neither accepted nor refused for good: it fails with {@link Deferred}, which the
 * caller answers 503 with {@code Retry-After}, so its sender tries again once a re-read may run. One per issuer,
 * confined to one context: no lock.
 */
public final class KeySetRereads {

  public static final long MIN_INTERVAL_MS = 5_000;

  private Future<Void> last;
  private long lastStartedAt;

  /** {@code read} started now, or the one running, or — while the bound holds — failed with {@link Deferred}. */
  public Future<Void> reread(Supplier<Future<Void>> read) {
    long now = System.nanoTime();
    long waitMs = last == null ? 0 : MIN_INTERVAL_MS - TimeUnit.NANOSECONDS.toMillis(now - lastStartedAt);
    if (last != null && !last.isComplete()) return last;
    if (waitMs > 0) return Future.failedFuture(new Deferred(waitMs));
    lastStartedAt = now;
    last = read.get();
    return last;
  }

  /** A re-read refused by the bound: the token's key may be one the issuer just published; ask again later. */
  public static final class Deferred extends RuntimeException {

    private final long retryAfterSeconds;

    Deferred(long waitMs) {
      super("the issuer's keys were read again less than " + MIN_INTERVAL_MS / 1000 + " s ago and the token's key id is not "
        + "among them; retry in " + seconds(waitMs) + " s", null, false, false);
      this.retryAfterSeconds = seconds(waitMs);
    }

    /** What {@code Retry-After} says: the whole seconds until a re-read may run, at least 1. */
    public long retryAfterSeconds() {
      return retryAfterSeconds;
    }

    private static long seconds(long ms) {
      return Math.max(1, (ms + 999) / 1000);
    }
  }
}
