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
import java.util.List;

/**
 * BarridoPlazos, the Monitor's scheduled thread (R1–R5), run only by the leader: every {@code vigilancia.barrido-ms}
 * it registers a signal in RegistroSenales for each stage past its deadline (unique pedido, etapa, intento: a repeated
 * sweep signals nothing twice) and has PublicadorReintentos publish the signals not yet acknowledged, a page
 * ({@link RegistroSenales#PAGINA}) at a time until none is left: no cap per turn, so an outage of a stage at 600 orders/s
 * is signalled within the turn that finds it. ASR-3 ends here, on the database's clock at the mark.
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
    return registro.senalarVencidas().compose(x -> publicarPendientes());
  }

  /**
   * A page of signals published, the acknowledged ones marked in one statement, then the next page; a page with a
   * failed publish ends the turn (the broker is away: the next turn starts over from what is still unmarked).
   */
  private Future<Void> publicarPendientes() {
    return registro.senalesPorPublicar().compose(senales -> {
      List<Future<Senal>> publicadas = senales.stream().map(s -> reintentos.reintentar(s).map(s)).toList();
      return Future.join(publicadas)
        .transform(done -> marcar(publicadas.stream().filter(Future::succeeded).map(Future::result).toList())
          .compose(x -> done.succeeded() ? Future.succeededFuture() : Future.failedFuture(done.cause())))
        .compose(x -> senales.size() < RegistroSenales.PAGINA ? Future.succeededFuture() : publicarPendientes());
    });
  }

  private Future<Void> marcar(List<Senal> publicadas) {
    return registro.senalesPublicadas(publicadas).map(marcadas -> {
      marcadas.forEach((senal, en) -> {
        if (senal.enCursoDesde() != null) asr3.record(Duration.between(senal.enCursoDesde(), en));
      });
      return null;
    });
  }
}
