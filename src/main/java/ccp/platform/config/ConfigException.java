package ccp.platform.config;

/** A configuration or command-line problem, reported to the user as one line and exit status 2. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
