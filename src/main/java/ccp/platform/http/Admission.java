package ccp.platform.http;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Admission control at every door, against overload: each route class has an adaptive concurrency limit — Netflix's
 * concurrency-limits, AIMD with a latency target — that grows by one while its requests are answered within the target
 * and shrinks by a tenth for each answer slower than it (or a 5xx). A request beyond the limit is refused at once, 503
 * with {@code Retry-After} and a JSON body, so the work accepted keeps its latency instead of every request waiting.
 * AIMD rather than a gradient limit: a gradient limit compares with its long-term latency, which under an overload
 * present from the start is already the degraded one, so it would let everything in.
 * <p>
 * The security paths have priority: their class (sessions, devices, alerts, revocations, Shared Signals) counts an
 * answer as slow only past twice {@code http.admission-target-ms} (200 ms by default), the others past it, so when
 * orders flood the machine the orders' limit shrinks first and the sessions keep theirs. Each router (one per
 * verticle) has its own limiters, confined to its event loop: the library's sample update takes a monitor (its
 * {@code AbstractLimit.onSample} is synchronized) that no other thread ever contends for.
 * <p>
 * The security area's own changes (registering devices, lifting revocations, managing Shared Signals streams) are a
 * class apart, with the security paths' priority and a floor of {@code http.admission-admin-limit}: an administrator's
 * burst is a few hundred requests at most and never what overloads a process, while a limit shrunk by a cold start's
 * slow first answers would refuse it.
 * <p>
 * A limit sees a request only once a handler runs it. When the process has more work than its cores (the chain's
 * consumers, the broker, the database share them in one process), requests also wait in the event loop's queue before
 * any handler, where no limit counts them: each verticle therefore also watches its event loop's standing delay
 * ({@link EventLoopDelay}) and, past {@code http.admission-delay-ms}, refuses writes and reads at once — the security
 * paths only past four times it — until the loop keeps up again.
 */
public final class Admission {

  /** The route classes, each with its own limit and the latency past which an answer counts as a sign of overload. */
  enum Clase {
    SEGURIDAD(2, 4), ADMINISTRACION(2, 4), ESCRITURAS(1, 1), LECTURAS(1, 1);

    /** Times {@code http.admission-target-ms} past which an answer counts as slow. */
    private final int objetivos;
    private final String nombre = name().toLowerCase(Locale.ROOT);
    /** Times {@code http.admission-delay-ms} of event-loop delay past which the class is refused. */
    private final int demoras;

    Clase(int objetivos, int demoras) {
      this.objetivos = objetivos;
      this.demoras = demoras;
    }
  }

  private Admission() {}

  /**
   * A new handler with its own limiters: one per router, made in its verticle's start (the event loop it watches is
   * that verticle's), mounted on {@code /v1/*} (before the token check) and {@code /ssf/*}.
   */
  public static Handler<RoutingContext> handler(Vertx vertx, HttpConfig http, MeterRegistry registry) {
    Map<Clase, Limiter<Void>> limiters = new EnumMap<>(Clase.class);
    Map<Clase, Counter> refused = new EnumMap<>(Clase.class);
    Map<Clase, Counter> late = new EnumMap<>(Clase.class);
    EventLoopDelay delay = http.admissionDelayMs() > 0 ? EventLoopDelay.start(vertx) : null;
    for (Clase clase : Clase.values()) {
      int floor = clase == Clase.ADMINISTRACION ? Math.max(http.admissionMin(), http.admissionAdminLimit()) : http.admissionMin();
      limiters.put(clase, SimpleLimiter.newBuilder().named(clase.nombre)
        .limit(AIMDLimit.newBuilder()
          .initialLimit(Math.max(floor, http.admissionInitial()))
          .minLimit(floor)
          .maxLimit(Math.max(floor, http.admissionMax()))
          .timeout((long) clase.objetivos * http.admissionTargetMs(), TimeUnit.MILLISECONDS)
          .backoffRatio(0.9)
          .build())
        .build());
      refused.put(clase, refusedCounter(registry, clase, "limit"));
      late.put(clase, refusedCounter(registry, clase, "delay"));
    }
    return ctx -> {
      Clase clase = clase(ctx);
      if (delay != null && delay.standingMs() > (long) clase.demoras * http.admissionDelayMs()) {
        late.get(clase).increment();
        refuse(ctx, "the " + clase.nombre + " requests wait behind more work than this process keeps up with; retry");
        return;
      }
      Optional<Limiter.Listener> admitted = limiters.get(clase).acquire(null);
      if (admitted.isEmpty()) {
        refused.get(clase).increment();
        refuse(ctx, "the " + clase.nombre + " requests are at their concurrency limit; retry");
        return;
      }
      Limiter.Listener listener = admitted.get();
      if (EventStream.requested(ctx)) {
        // The console's event stream lasts while its page is open: admitted like any request, it gives its place back
        // at once and is not measured (its duration is no latency, and would shrink its class's limit).
        listener.onIgnore();
        ctx.next();
        return;
      }
      ctx.addEndHandler(ended -> {
        if (ended.failed() || ctx.response().getStatusCode() >= 500) listener.onDropped();
        else listener.onSuccess();
      });
      ctx.next();
    };
  }

  private static Counter refusedCounter(MeterRegistry registry, Clase clase, String reason) {
    return Counter.builder("http_admission_refused")
      .description("Requests refused at the door (503): reason limit, beyond their route class's adaptive concurrency limit; "
        + "reason delay, while the verticle's event loop runs behind")
      .tag("class", clase.nombre).tag("reason", reason).register(registry);
  }

  private static void refuse(RoutingContext ctx, String message) {
    ctx.response().putHeader("Retry-After", "1");
    ApiErrors.send(ctx, 503, "overloaded", message);
  }

  static Clase clase(RoutingContext ctx) {
    String path = ctx.request().path();
    HttpMethod method = ctx.request().method();
    if ((method == HttpMethod.PUT && path.startsWith("/v1/dispositivos/"))
      || (method == HttpMethod.POST && path.startsWith("/v1/revocaciones/") && path.endsWith("/levantamiento"))
      || (path.startsWith("/v1/ssf/") && !path.startsWith("/v1/ssf/poll"))) {
      return Clase.ADMINISTRACION;
    }
    if (path.startsWith("/v1/sesiones") || path.startsWith("/v1/dispositivos") || path.startsWith("/v1/alertas")
      || path.startsWith("/v1/revocaciones") || path.startsWith("/v1/ssf") || path.startsWith("/ssf/")) {
      return Clase.SEGURIDAD;
    }
    return method == HttpMethod.GET || method == HttpMethod.HEAD ? Clase.LECTURAS : Clase.ESCRITURAS;
  }
}
