package ccp;

import ccp.app.RunCommand;
import ccp.app.SecretsCommand;
import ccp.app.TokenCommand;
import ccp.platform.cli.Cli;
import ccp.platform.infra.LocalServers;

/**
 * The production entry point, the container image's main class (Jib, {@code system/pom.xml}): {@code [run]
 * [--role=all|r1,r2] [--conf=<file>]} runs roles against the configured Kafka and PostgreSQL; {@code token <actor>
 * [--perfil=P]} prints a token; {@code k8s-secrets} prints the cluster's keys and passwords to create. The laptop jar, {@code target/reto2-ccp.jar} ({@code ccp.laptop.Laptop}), adds the
 * embedded servers, the lab and the load drivers.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    Cli.main(args, new RunCommand(LocalServers.NONE), new TokenCommand(), new SecretsCommand());
  }
}
