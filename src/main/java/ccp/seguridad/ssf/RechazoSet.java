package ccp.seguridad.ssf;

/**
 * A SET refused, with its RFC 8935 §2.4 error code: {@code invalid_request}, {@code invalid_key},
 * {@code invalid_issuer}, {@code invalid_audience}, {@code authentication_failed} or {@code access_denied}.
 */
public final class RechazoSet extends RuntimeException {

  private final String err;

  public RechazoSet(String err, String description) {
    super(description, null, false, false);
    this.err = err;
  }

  public String err() {
    return err;
  }
}
