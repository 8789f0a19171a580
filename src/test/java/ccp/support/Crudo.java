package ccp.support;

import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bytes written on a raw socket and everything read back until the server closes the connection or stays silent for
 * {@link #SILENCIO_MS}: what no HTTP client would send (two framings at once, a smuggled second request), and every
 * answer the server gave to it.
 *
 * @param texto   everything read, as text
 * @param cerrada the server closed the connection (else it kept it open, silent)
 */
public record Crudo(String texto, boolean cerrada) {

  /** Long enough for a loaded machine to answer; a test of a connection kept open waits this long, once. */
  static final int SILENCIO_MS = 3_000;
  private static final Pattern STATUS = Pattern.compile("(?m)^HTTP/1\\.[01] (\\d{3})");

  public static Crudo enviar(int port, String request) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(SILENCIO_MS);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      boolean closed;
      while (true) {
        try {
          int n = in.read(buffer);
          if (n < 0) {
            closed = true;
            break;
          }
          read.write(buffer, 0, n);
        } catch (SocketTimeoutException silent) {
          closed = false;
          break;
        } catch (IOException reset) {
          closed = true;
          break;
        }
      }
      return new Crudo(read.toString(StandardCharsets.ISO_8859_1), closed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The status of every response read, in order. */
  public List<Integer> estados() {
    List<Integer> estados = new ArrayList<>();
    Matcher m = STATUS.matcher(texto);
    while (m.find()) estados.add(Integer.parseInt(m.group(1)));
    return estados;
  }

  /** The first response's header {@code name}, or null. */
  public String cabecera(String name) {
    Matcher m = Pattern.compile("(?im)^" + Pattern.quote(name) + ":\\s*(.*?)\\r?$").matcher(cabeceras());
    return m.find() ? m.group(1) : null;
  }

  /** The first response's body as JSON (it must be one, framed by its Content-Length: the errors are). */
  public JsonObject json() {
    int start = texto.indexOf("\r\n\r\n") + 4;
    String length = cabecera("Content-Length");
    if (start < 4 || length == null) throw new AssertionError("no response with a Content-Length in:\n" + texto);
    return new JsonObject(texto.substring(start, Math.min(texto.length(), start + Integer.parseInt(length.trim()))));
  }

  private String cabeceras() {
    int end = texto.indexOf("\r\n\r\n");
    return end < 0 ? texto : texto.substring(0, end);
  }
}
