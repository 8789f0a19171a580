package ccp.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

/**
 * An {@link EmbeddedPg} kept running: when its postmaster exits without being asked to (a crash, an OOM kill, a kill
 * -9), a supervisor thread starts it again on the same data directory and port, so that the processes using it
 * reconnect to the same address, with a back-off between failed starts ({@value #FIRST_BACKOFF_MS} ms doubling up to
 * {@value #MAX_BACKOFF_MS} ms: a crashed server's backends may hold its shared memory for a moment). PostgreSQL's own
 * crash recovery replays its WAL: every commit acknowledged before the crash is there after the restart. The state
 * ({@code current}) is the supervisor thread's while it runs; {@link #close} stops that thread first, then the server.
 * Nothing is restarted once the JVM is exiting.
 */
public final class SupervisedPg implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SupervisedPg.class);
  private static final long FIRST_BACKOFF_MS = 500;
  private static final long MAX_BACKOFF_MS = 30_000;

  /** How to start the server again, on the port it first got. */
  @FunctionalInterface
  public interface Starter {
    EmbeddedPg start(int port) throws Exception;
  }

  private final Starter starter;
  private final int port;
  private final Thread supervisor;
  private EmbeddedPg current;
  private volatile boolean closed;

  private SupervisedPg(Starter starter, EmbeddedPg first) {
    this.starter = starter;
    this.port = first.port();
    this.current = first;
    this.supervisor = new Thread(this::supervise, "embedded-pg-supervisor");
    supervisor.setDaemon(true);
    supervisor.start();
    // At the JVM's exit the library's own hook stops the server, maybe before this is closed: that is no crash, and a
    // server started then would outlive the process.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closed = true, "embedded-pg-supervisor-exit"));
  }

  /** Starts the server ({@code port} 0: a free one, kept for every restart) and its supervisor. */
  public static SupervisedPg start(Starter starter, int port) throws Exception {
    return new SupervisedPg(starter, starter.start(port));
  }

  public int port() {
    return port;
  }

  private void supervise() {
    while (!closed) {
      try {
        Optional<ProcessHandle> postmaster = current.postmaster();
        if (postmaster.isEmpty()) {
          LOG.warn("The embedded PostgreSQL on port {} names no running postmaster: it is not supervised", port);
          return;
        }
        postmaster.get().onExit().get();
        if (closed) return;
        LOG.error("The embedded PostgreSQL on port {} stopped without being asked to: restarting it", port);
        closeQuietly(current);
        current = restart();
      } catch (InterruptedException e) {
        return;
      } catch (ExecutionException | IOException e) {
        LOG.warn("Watching the embedded PostgreSQL failed ({}); looking again", e.toString());
      }
    }
  }

  /** Starts the server again until it starts (or this is closed), the wait doubling after each failure. */
  private EmbeddedPg restart() throws InterruptedException {
    long backoff = FIRST_BACKOFF_MS;
    long began = System.nanoTime();
    while (true) {
      Thread.sleep(backoff);
      if (closed) throw new InterruptedException("closed while restarting");
      try {
        EmbeddedPg started = starter.start(port);
        LOG.warn("The embedded PostgreSQL on port {} is back after {} ms", port, (System.nanoTime() - began) / 1_000_000);
        return started;
      } catch (Exception e) {
        if (closed) throw new InterruptedException("closed while restarting");
        LOG.warn("Restarting the embedded PostgreSQL on port {} failed ({}); again in {} ms", port, e.toString(),
          Math.min(backoff * 2, MAX_BACKOFF_MS));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private static void closeQuietly(EmbeddedPg server) {
    try {
      server.close();
    } catch (IOException e) {
      LOG.warn("Releasing the stopped embedded PostgreSQL failed", e);
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    supervisor.interrupt();
    try {
      supervisor.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    current.close();
  }
}
