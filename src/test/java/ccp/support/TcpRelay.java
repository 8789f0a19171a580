package ccp.support;

import ccp.embedded.FreePorts;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay on loopback to {@code host:port} that a test can freeze: while frozen it forwards nothing, in either
 * direction, and closes nothing, so both ends see what a partition looks like (silence on an open connection, every
 * TCP segment still acknowledged by the kernel on each side) rather than a reset. Thawed, it forwards what waited.
 */
public final class TcpRelay implements AutoCloseable {

  private final ServerSocket server;
  private final String host;
  private final int port;
  private final List<Socket> sockets = new ArrayList<>();
  private volatile boolean frozen;
  private volatile boolean closed;

  public TcpRelay(String host, int port) throws IOException {
    this.host = host;
    this.port = port;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), FreePorts.pick()));
    Thread accept = new Thread(this::accept, "tcp-relay-accept");
    accept.setDaemon(true);
    accept.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  public void freeze() {
    frozen = true;
  }

  public void thaw() {
    frozen = false;
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(host, port);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(upstream);
        }
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        if (!closed) throw new IllegalStateException("relay accept failed", e);
      }
    }
  }

  private void pump(Socket from, Socket to) throws IOException {
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16 * 1024];
      try {
        while (true) {
          waitWhileFrozen();
          int n = in.read(buf);
          waitWhileFrozen();
          if (n < 0) break;
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // the other direction's close, or the relay's: nothing more to forward
      }
      closeQuietly(from);
      closeQuietly(to);
    }, "tcp-relay-pump");
    t.setDaemon(true);
    t.start();
  }

  private void waitWhileFrozen() throws InterruptedException {
    while (frozen && !closed) Thread.sleep(20);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    synchronized (sockets) {
      sockets.forEach(TcpRelay::closeQuietly);
    }
  }
}
