package ccp.cadena;

import ccp.platform.role.RoleContext;
import ccp.platform.db.Combiner;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;

import java.util.List;
import java.util.UUID;

/**
 * ControladorCadena of the Coordinador (steps 1–5): starts an order's chain from its committed
 * {@code escritura.realizada} (deviation of DESIGN.md §9: an order is never written without its chain starting),
 * writes the stage rows with the first EN_CURSO and its deadline, and has PublicadorComandos send that stage its
 * command; an annulment, committed the same way, stops the chain. Its offset moves only after the commands are
 * acknowledged. The chains of the writes that arrive while one statement is in flight start with the next, together
 * ({@link Combiner}).
 */
final class ControladorCadena extends ConsumidorCadena {

  /** The Coordinador's own queue on the writes; its confirmations queue is {@code cola.coordinador}. */
  static final String COLA = "cola.coordinador.escrituras";

  private Combiner<UUID, RepositorioCadena.Inicio, List<RepositorioCadena.EnCurso>> inicios;

  ControladorCadena(RoleContext role, CadenaConfig config) {
    super(role, config, COLA, Topics.ESCRITURA_REALIZADA);
  }

  @Override
  protected void preparar() {
    long plazoMs = config.plazoEtapaMs();
    inicios = new Combiner<>(config.loteMax(), RepositorioCadena.Inicio::pedido,
      lote -> cadenas.iniciar(lote, plazoMs));
  }

  @Override
  protected Future<Void> handle(Envelope escritura) {
    EventTypes.require(escritura, EventTypes.ESCRITURA_REALIZADA, Topics.ESCRITURA_REALIZADA);
    String operacion = escritura.textOf("operacion");
    // Only an order's writes move a chain: the other services' writes (Inventario's stock adjustments) name no order.
    if (!EventTypes.CREAR_PEDIDO.equals(operacion) && !EventTypes.ANULAR_PEDIDO.equals(operacion)) return Future.succeededFuture();
    UUID pedido = UUID.fromString(escritura.textOf("pedido"));
    if (EventTypes.ANULAR_PEDIDO.equals(operacion)) return detener(pedido, escritura.textOf("actor"));
    JsonArray lineas = Lineas.de(escritura.data());
    return inicios.submit(new RepositorioCadena.Inicio(pedido, escritura.textOf("actor"), lineas))
      .compose(enCurso -> enCurso == null ? Future.succeededFuture() : Future.all(enCurso.stream()
        .map(e -> comandos.ejecutar(pedido, e.etapa(), e.intento(), lineas)).toList()))
      .mapEmpty();
  }

  /**
   * An annulled order (the Reacción's compensation): its chain stops, even if it had not started, and every stage is
   * asked to undo what it did — or, taking its key first, never to do it.
   */
  private Future<Void> detener(UUID pedido, String actor) {
    return cadenas.detener(pedido, actor)
      .compose(x -> Future.all(List.of(Etapa.values()).stream().map(etapa -> comandos.compensar(pedido, etapa)).toList()))
      .mapEmpty();
  }

}
