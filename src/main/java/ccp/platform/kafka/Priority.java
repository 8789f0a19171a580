package ccp.platform.kafka;

/**
 * The consumers of one process share its event loops and cores. Under overload the security paths keep their budgets
 * (ASR-1 and ASR-2 before the order chain's throughput): a {@link #SECURITY} consumer that falls behind says so, and the {@link #CHAIN} consumers of the same
 * process yield to it ({@link SecurityPressure}).
 */
public enum Priority {
  /** Its waiting is ASR-1 or ASR-2 time (the Verificador, the Detector, the Notificador): it reports when it is behind. */
  SECURITY,
  /**
   * The order chain's: while a security consumer of its process is behind, it pauses its partitions whenever it has
   * {@code kafka.consumer.yield-in-flight} records in progress (records already fetched still arrive).
   */
  CHAIN,
  /** Neither. */
  NONE
}
