package ccp.seguridad;

import ccp.app.RoleContext;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.ReliableConsumer;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.time.Instant;
import java.util.UUID;

/**
 * ConsumidorSesiones of the Verificador de dispositivo (A5–A9): takes {@code SesionAbierta} from
 * {@code cola.verificador}, reads the current fingerprint (registering a first one), compares it with
 * ComparadorHuella and, on a mismatch, has PublicadorAlertas raise the alert.
 */
public final class ConsumidorSesiones extends VerticleBase {

  static final String COLA = "cola.verificador";

  private final RoleContext role;
  private final ComparadorHuella comparador = new ComparadorHuella();
  private EventPublisher publisher;
  private ReliableConsumer consumer;
  private ControladorRegistro registro;
  private PublicadorAlertas alertas;

  public ConsumidorSesiones(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, role.settings(), "seguridad-publicador-alertas");
    registro = new ControladorRegistro(role.sql());
    alertas = new PublicadorAlertas(publisher);
    consumer = new ReliableConsumer(vertx, role.settings(), COLA, Topics.SESION_ABIERTA, publisher, this::verificar);
    role.health().readyWhen(COLA, context, consumer::readiness);
    return consumer.start();
  }

  @Override
  public Future<?> stop() {
    role.health().forget(COLA);
    return consumer.stop().eventually(publisher::close);
  }

  private Future<Void> verificar(Envelope event) {
    EventTypes.require(event, EventTypes.SESION_ABIERTA, Topics.SESION_ABIERTA);
    String sesion = UUID.fromString(event.textOf("sesion")).toString();
    String vendedor = event.textOf("vendedor");
    String huella = event.textOf("huella");
    Instant t0 = event.instantOf("t0");
    return registro.vigente(vendedor, huella).compose(vigente -> comparador.coincide(vigente, huella)
      ? Future.succeededFuture()
      : alertas.dispositivoNoValido(sesion, vendedor, huella, t0));
  }
}
