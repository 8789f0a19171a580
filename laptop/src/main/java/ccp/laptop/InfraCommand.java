package ccp.laptop;

import ccp.platform.cli.ConfOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/** {@code infra [--conf=<file>]}: the embedded Kafka and PostgreSQL alone (and the dev issuer), for role processes started beside it. */
@Command(name = "infra", mixinStandardHelpOptions = true,
  description = "Run only the embedded Kafka and PostgreSQL, on infra.kafka-port and infra.pg-port, and the development issuer's JWK Set on infra.issuer-port (bin/cluster).")
final class InfraCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(InfraCommand.class);

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    InfraProcess infra = InfraProcess.start(conf.settings());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        infra.close();
      } catch (Exception e) {
        LOG.warn("Stopping the infrastructure failed", e);
      }
    }, "ccp-shutdown"));
    return 0;
  }
}
