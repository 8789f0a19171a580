package ccp.vigilancia;

import ccp.cadena.Cadena;
import ccp.cadena.RegistroSenales;
import ccp.cadena.Senal;
import ccp.platform.async.PeriodicTask;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.metrics.AsrTimers;
import ccp.platform.role.RoleContext;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.time.Duration;
import java.time.Instant;

/**
 * BarridoPlazos, the Monitor's scheduled thread (R1–R5), run only by the leader: every {@code vigilancia.barrido-ms}
 * it registers a signal in RegistroSenales for each stage past its deadline (unique pedido, etapa, intento: a repeated
 * sweep signals nothing twice) and has PublicadorReintentos publish the signals not yet acknowledged. ASR-3 ends here.
 */
final class BarridoPlazos extends VerticleBase {

  private final RoleContext role;
  private final VigilanciaConfig config;
  private RegistroSenales registro;
  private EventPublisher publisher;
  private PublicadorReintentos reintentos;
  private Timer asr3;
  private PeriodicTask barrido;

  BarridoPlazos(RoleContext role, VigilanciaConfig config) {
    this.role = role;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    registro = Cadena.registroSenales(role.sql());
    publisher = EventPublisher.create(vertx, role.kafka());
    reintentos = new PublicadorReintentos(publisher);
    asr3 = AsrTimers.asr3(role.registry(), config.asr3Budget());
    barrido = PeriodicTask.every(vertx, config.barridoMs(), "Sweep", this::barrer);
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    barrido.cancel();
    return publisher.close();
  }

  /** R1–R3 (read-only on the chain), then R4–R5 for every signal not yet acknowledged. */
  private Future<?> barrer() {
    return registro.senalarVencidas()
      .compose(x -> registro.senalesPorPublicar())
      .compose(senales -> Future.join(senales.stream().map(this::publicar).toList()));
  }

  private Future<Void> publicar(Senal senal) {
    return reintentos.reintentar(senal)
      .compose(ack -> registro.senalPublicada(senal))
      .onSuccess(marcada -> {
        if (marcada && senal.enCursoDesde() != null) asr3.record(Duration.between(senal.enCursoDesde().toInstant(), Instant.now()));
      })
      .mapEmpty();
  }
}
