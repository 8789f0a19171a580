package ccp.seguridad.ssf;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The Shared Signals figures on {@code /metrics}: per stream, a SET's time from stored to acknowledged (202, or a
 * poll's ack), its retries and its refusals; per client, the streams it holds (against {@code ssf.streams-per-owner});
 * and the receiver's time from a SET's arrival to its 202.
 */
public final class MedidasSsf {

  private final MeterRegistry registry;
  private MultiGauge porDueno;

  public MedidasSsf(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The streams each client holds now; a client that holds none any more leaves the series. */
  void flujosPorDueno(Map<String, Integer> cuentas) {
    if (porDueno == null) {
      porDueno = MultiGauge.builder("ssf_streams").description("Shared Signals: the streams a client holds").register(registry);
    }
    porDueno.register(cuentas.entrySet().stream()
      .map(e -> MultiGauge.Row.of(Tags.of("owner", e.getKey()), e.getValue())).toList(), true);
  }

  public void entregada(String flujo, Instant creadaEn) {
    Timer.builder("ssf_delivery")
      .description("Shared Signals: a SET stored (with its alert) to acknowledged by the stream's receiver")
      .tag("stream", flujo)
      .publishPercentiles(0.5, 0.99)
      .publishPercentileHistogram()
      .minimumExpectedValue(Duration.ofMillis(1))
      .maximumExpectedValue(Duration.ofMinutes(10))
      .register(registry)
      .record(Duration.between(creadaEn, Instant.now()));
  }

  public void reintento(String flujo) {
    Counter.builder("ssf_delivery_retries").description("Shared Signals: failed pushes, retried with back-off")
      .tag("stream", flujo).register(registry).increment();
  }

  public void rechazo(String flujo) {
    Counter.builder("ssf_delivery_refused").description("Shared Signals: SETs the receiver refused for good (4xx)")
      .tag("stream", flujo).register(registry).increment();
  }

  /** The receiver's timer: a SET's arrival to its actor revoked and the alert published (the 202). */
  public static Timer recepcion(MeterRegistry registry) {
    return Timer.builder("ssf_reception")
      .description("Shared Signals receiver: a SET's arrival to its actor revoked and the alert published (the 202)")
      .publishPercentiles(0.5, 0.99)
      .publishPercentileHistogram()
      .minimumExpectedValue(Duration.ofMillis(1))
      .maximumExpectedValue(Duration.ofSeconds(30))
      .register(registry);
  }
}
