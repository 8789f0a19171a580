package ccp.cadena;

import ccp.platform.role.RoleContext;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.PoisonMessageException;
import ccp.platform.kafka.Topics;
import ccp.platform.metrics.AsrTimers;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;

import java.util.UUID;

/**
 * ConsumidorMensajes of the Coordinador (steps 9–11): takes the stages' confirmations from {@code cola.coordinador}
 * and hands them to the OrquestadorCadena; its offset moves once the chain's next step is recorded and sent.
 */
final class ConsumidorMensajes extends ConsumidorCadena {

  static final String COLA = "cola.coordinador";

  private OrquestadorCadena orquestador;

  ConsumidorMensajes(RoleContext role, CadenaConfig config) {
    super(role, config, COLA, Topics.ETAPA_COMPLETADA);
  }

  @Override
  protected void preparar() {
    orquestador = new OrquestadorCadena(cadenas, new RepositorioBandeja(role.sql()), comandos,
      config.plazoEtapaMs(), config.loteMax(), AsrTimers.asr4(role.registry(), config.asr4Budget()),
      Timer.builder("chain_completion")
        .description("An order's chain, started from its committed write, to pedido.listo")
        .publishPercentileHistogram()
        .register(role.registry()));
  }

  @Override
  protected Future<Void> handle(Envelope confirmacion) {
    EventTypes.require(confirmacion, EventTypes.ETAPA_COMPLETADA, Topics.ETAPA_COMPLETADA);
    UUID pedido = UUID.fromString(confirmacion.textOf("pedido"));
    Etapa etapa;
    try {
      etapa = Etapa.valueOf(confirmacion.textOf("etapa"));
    } catch (IllegalArgumentException e) {
      throw new PoisonMessageException("unknown etapa " + confirmacion.textOf("etapa"));
    }
    ResultadoEtapa resultado;
    try {
      resultado = ResultadoEtapa.valueOf(confirmacion.textOf("resultado"));
    } catch (IllegalArgumentException e) {
      // Deterministic for this record: retrying would hold the partition's commit back for ever.
      throw new PoisonMessageException("unknown resultado " + confirmacion.textOf("resultado"));
    }
    return orquestador.confirmada(pedido, etapa, resultado);
  }
}
