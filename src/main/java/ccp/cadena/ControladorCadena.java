package ccp.cadena;

import ccp.app.RoleContext;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.PoisonMessageException;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * ControladorCadena of the Coordinador (steps 1–5): starts an order's chain from its committed
 * {@code escritura.realizada} (deviation of DESIGN.md §9: an order is never written without its chain starting),
 * writes the stage rows with the first EN_CURSO and its deadline, and has PublicadorComandos send that stage its
 * command. Its offset moves only after the command is acknowledged.
 */
public final class ControladorCadena extends ConsumerVerticle {

  /** The Coordinador's own queue on the writes; its confirmations queue is {@code cola.coordinador}. */
  static final String COLA = "cola.coordinador.escrituras";
  private static final String CREAR_PEDIDO = "CREAR_PEDIDO";

  private final RoleContext role;
  private RepositorioCadena cadenas;
  private PublicadorComandos comandos;

  public ControladorCadena(RoleContext role) {
    super(role.settings(), role.health(), COLA, Topics.ESCRITURA_REALIZADA);
    this.role = role;
  }

  @Override
  protected void prepare() {
    cadenas = new RepositorioCadena(role.sql());
    comandos = new PublicadorComandos(publisher());
  }

  @Override
  protected Future<Void> handle(Envelope escritura) {
    EventTypes.require(escritura, EventTypes.ESCRITURA_REALIZADA, Topics.ESCRITURA_REALIZADA);
    if (!CREAR_PEDIDO.equals(escritura.textOf("operacion"))) return Future.succeededFuture();
    UUID pedido = UUID.fromString(escritura.textOf("pedido"));
    JsonArray lineas = lineas(escritura.data());
    return cadenas.iniciar(pedido, escritura.textOf("actor"), lineas, role.settings().integer("cadena.plazo-etapa-ms"))
      .compose(enCurso -> Future.all(enCurso.stream()
        .map(e -> comandos.ejecutar(pedido, e.etapa(), e.intento(), lineas)).toList()))
      .mapEmpty();
  }

  private static JsonArray lineas(JsonObject data) {
    if (!(data.getValue("lineas") instanceof JsonArray lineas) || lineas.isEmpty()) {
      throw new PoisonMessageException("'lineas' must be a non-empty list");
    }
    for (Object linea : lineas) {
      if (!(linea instanceof JsonObject l) || !(l.getValue("producto") instanceof String)
        || !(l.getValue("cantidad") instanceof Integer q) || q < 1) {
        throw new PoisonMessageException("every line needs a 'producto' and a positive integer 'cantidad'");
      }
    }
    return lineas;
  }
}
