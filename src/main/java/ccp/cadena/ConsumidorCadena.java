package ccp.cadena;

import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.role.RoleContext;

/**
 * A consumer that moves the order chain (the Coordinador's and the Reanudador's): the chain's state and the stages'
 * commands, built on its own context before it subscribes; a {@link Priority#CHAIN} consumer.
 */
abstract class ConsumidorCadena extends ConsumerVerticle {

  protected final RoleContext role;
  protected final CadenaConfig config;
  protected RepositorioCadena cadenas;
  protected PublicadorComandos comandos;

  ConsumidorCadena(RoleContext role, CadenaConfig config, String cola, String topic) {
    super(role.kafka(), role.health(), role.registry(), cola, topic, Priority.CHAIN);
    this.role = role;
    this.config = config;
  }

  @Override
  protected final void prepare() {
    cadenas = new RepositorioCadena(role.sql());
    comandos = new PublicadorComandos(publisher());
    preparar();
  }

  /** Builds what the subclass needs besides the chain's state and the commands. */
  protected abstract void preparar();
}
