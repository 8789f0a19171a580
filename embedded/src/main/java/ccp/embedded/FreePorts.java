package ccp.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for the servers started on this machine (the embedded broker and PostgreSQL, and the roles a test starts),
 * taken below the kernel's ephemeral range. A port is picked first and bound seconds later, after dozens of Kafka,
 * PostgreSQL and HTTP connections have been opened; a port that was free in the ephemeral range can meanwhile have
 * become the local port of one of those connections, and the bind fails with EADDRINUSE (it did, in CI:
 * {@code ReaccionFallaCerradaTest} restarting a seguridad). The kernel never hands out a port outside
 * {@code ip_local_port_range} to a connection, so only a listener could take one of these, and each is checked free
 * when handed out, once per JVM.
 */
public final class FreePorts {

  private static final int LOWEST = 10_000;
  private static final int BELOW = ephemeralLow();
  /** Where in the range this JVM starts: the system suite and the laptop suite's JVMs do not walk the same ports. */
  private static final AtomicInteger NEXT = new AtomicInteger(
    LOWEST + (int) (ProcessHandle.current().pid() * 7_919 % Math.max(1, BELOW - LOWEST)));

  private FreePorts() {}

  public static int pick() {
    if (BELOW - LOWEST < 1_000) return ephemeral();
    for (int tries = 0; tries < BELOW - LOWEST; tries++) {
      int port = LOWEST + Math.floorMod(NEXT.getAndIncrement() - LOWEST, BELOW - LOWEST);
      if (free(port)) return port;
    }
    throw new IllegalStateException("no free port in " + LOWEST + "-" + (BELOW - 1));
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      // As the servers bind: a port whose last connections are in TIME_WAIT is free to them.
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  /**
   * The first port of the kernel's ephemeral range (32768 by default on Linux); 0 where it cannot be read. Read through
   * a buffered reader, in one read: a sysctl file states its size as 0 and answers any read past its start with
   * nothing, so {@code Files.readString} (which then reads one byte, then the rest) saw "3" of "32768 60999", and every
   * port came from the ephemeral range after all.
   */
  private static int ephemeralLow() {
    try {
      return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException unknown) {
      return 0;
    }
  }

  private static int ephemeral() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }
}
