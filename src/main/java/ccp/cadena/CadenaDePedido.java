package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * An order's chain as the person who follows the order reads it (DESIGN.md §5, "read an order and the state of its
 * chain"): the chain's state ({@link EstadoCadena}: EN_CURSO, LISTO, RECHAZADO, DETENIDO) and when it began and ended,
 * and each stage in the chain's order with its {@link EstadoEtapa}, attempt and timestamps. Read only. The owner of the
 * chain's state answers it, through {@link Cadena#cadenaDePedido}, with the reader's own database login.
 */
public interface CadenaDePedido {

  /**
   * {@code {estado, iniciada_en, terminada_en, etapas: [{etapa, estado, intento, en_curso_desde, reintento_desde,
   * actualizada_en}]}}; empty while the Coordinador has not started the order's chain. A chain stopped before it started
   * has no stages.
   */
  Future<Optional<JsonObject>> de(UUID pedido);

  /**
   * A fingerprint of the chains of {@code pedidos} that changes whenever one of them starts, ends or has a stage move:
   * the console's live view of an actor's orders compares it, not the chains themselves.
   */
  Future<String> version(List<UUID> pedidos);
}
