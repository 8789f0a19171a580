package ccp.platform.kafka;

/** A record that no retry can process: it goes to {@code cola.fallidos} with this message as its reason. */
public final class PoisonMessageException extends RuntimeException {
  public PoisonMessageException(String reason) {
    super(reason, null, false, false);
  }
}
