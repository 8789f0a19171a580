package ccp.support;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs a main class of the test class path in a JVM of its own, with this JVM's {@code -XX} options:
 * the build's {@code argLine} (the test JVMs' JIT settings) reaches the processes the tests start as well.
 */
public final class Jvm {

  private Jvm() {}

  public static List<String> command(Class<?> main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("-XX:")).forEach(command::add);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    return command;
  }
}
