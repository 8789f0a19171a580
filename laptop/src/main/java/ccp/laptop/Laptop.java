package ccp.laptop;

import ccp.app.RunCommand;
import ccp.app.SecretsCommand;
import ccp.app.TokenCommand;
import ccp.carga.CargaPedidos;
import ccp.carga.CargaSesiones;
import ccp.carga.CargaSobrecarga;
import ccp.experimento.Experimento;
import ccp.lab.Lab;
import ccp.lab.LabInstancia;
import ccp.platform.cli.Cli;

/**
 * The laptop jar's entry point: the production commands ({@code run}, {@code token}) with the embedded Kafka and
 * PostgreSQL for whatever the configuration leaves unset, plus {@code infra} (those servers alone, for several role
 * processes), the critical-section {@code lab}, the {@code carga-*} load drivers and {@code experimento} (the load and checks of bin/experiment).
 */
public final class Laptop {

  private Laptop() {}

  public static void main(String[] args) {
    Cli.main(args, new RunCommand(Embedded.SERVERS), new TokenCommand(), new SecretsCommand(), new InfraCommand(), new Lab(),
      new LabInstancia(), new CargaSesiones(), new CargaPedidos(), new CargaSobrecarga(), new Experimento());
  }
}
