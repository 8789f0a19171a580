package ccp.seguridad;

import ccp.platform.role.RoleContext;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.ReliableConsumer;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.UUID;

/**
 * ConsumidorSesiones of the Verificador de dispositivo (A5–A9): takes {@code SesionAbierta} from
 * {@code cola.verificador}, reads the current fingerprint (registering a first one), compares it with
 * ComparadorHuella and, on a mismatch, has PublicadorAlertas raise the alert.
 */
final class ConsumidorSesiones extends ConsumerVerticle {

  static final String COLA = "cola.verificador";

  private final RoleContext role;
  private final ComparadorHuella comparador = new ComparadorHuella();
  private ControladorRegistro registro;
  private PublicadorAlertas alertas;

  /** {@code miembro}: its number among the Verificador's consumers in the active process ({@link LiderazgoSeguridad}). */
  ConsumidorSesiones(RoleContext role, int miembro) {
    super(role.kafka(), role.health(), role.registry(), COLA, Topics.SESION_ABIERTA, Priority.SECURITY, miembro);
    this.role = role;
  }

  @Override
  protected void prepare() {
    registro = new ControladorRegistro(role.sql());
    alertas = new PublicadorAlertas(publisher());
  }

  /** Never a dead letter for a session whose device could not be checked: it would be a check of ASR-1 not made. */
  @Override
  protected ReliableConsumer.RetryPolicy retryPolicy() {
    return ReliableConsumer.RetryPolicy.UNTIL_DONE;
  }

  @Override
  protected Future<Void> handle(Envelope event) {
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
