package ccp.platform.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;

/**
 * The ASR measurements of DESIGN.md §6 as Micrometer timers with percentiles and the budget as an SLO bucket, so
 * {@code /metrics} answers both "what is p99" and "how many were within budget".
 */
public final class AsrTimers {

  private AsrTimers() {}

  /** ASR-1: A3 (t0, session opened) → A12 (security area notified), budget 2 s. */
  public static Timer asr1(MeterRegistry registry, Duration budget) {
    return timer(registry, "asr1", "ASR-1: session opened (t0) to security area notified", budget);
  }

  /** ASR-2: B6 (t_det, improper write detected) → reaction finished and the security area notified, budget 5 s. */
  public static Timer asr2(MeterRegistry registry, Duration budget) {
    return timer(registry, "asr2", "ASR-2: improper write detected (t_det) to reaction finished and notified", budget);
  }

  /** ASR-3: a stage stopped (its attempt started) → R5, the retry signal published (t_senal); budget 30 s. */
  public static Timer asr3(MeterRegistry registry, Duration budget) {
    return timer(registry, "asr3", "ASR-3: stage attempt started (then stopped) to retry signal published", budget);
  }

  /** ASR-4: R6 (the retry taken) → R11 (the retried stage confirmed, or its escalation held by the Bandeja); budget 5 s. */
  public static Timer asr4(MeterRegistry registry, Duration budget) {
    return timer(registry, "asr4", "ASR-4: retry taken to stage confirmed or escalation held by the Bandeja", budget);
  }

  /**
   * ASR-3 and ASR-4 together: a stage stopped (its attempt started) → the Bandeja holds its escalation (R11); budget
   * their sum, 35 s. Only escalated stages end here: a stage confirmed after its retry never reaches the Bandeja.
   */
  public static Timer asr34(MeterRegistry registry, Duration budget) {
    return timer(registry, "asr34", "ASR-3+4: stage attempt started (then stopped) to escalation held by the Bandeja", budget);
  }

  private static Timer timer(MeterRegistry registry, String name, String description, Duration budget) {
    return Timer.builder(name)
      .description(description)
      .tag("budget", budget.toMillis() + "ms")
      .publishPercentiles(0.5, 0.95, 0.99)
      .publishPercentileHistogram()
      .serviceLevelObjectives(budget)
      .minimumExpectedValue(Duration.ofMillis(1))
      .maximumExpectedValue(budget.multipliedBy(10))
      .register(registry);
  }
}
