package ccp.platform.http;

/** The lifetime rule vertx-auth-jwt leaves out: {@code exp} and {@code iat} present, {@code exp - iat} at most the maximum. */
final class Lifetimes {

  private Lifetimes() {}

  /** What is wrong with the token's lifetime, or null. */
  static String check(Object iat, Object exp, long maxSeconds) {
    if (!(exp instanceof Number e)) return "token has no expiry (exp)";
    if (!(iat instanceof Number i)) return "token has no issue time (iat)";
    long lifetime = e.longValue() - i.longValue();
    if (lifetime > maxSeconds) {
      return "token lives " + lifetime + " s, longer than the " + maxSeconds + " s allowed";
    }
    return null;
  }
}
