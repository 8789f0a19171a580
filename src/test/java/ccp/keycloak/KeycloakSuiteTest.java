package ccp.keycloak;

import ccp.support.Keycloak;
import ccp.support.SharedInfra;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;
import org.junit.platform.suite.api.SuiteDisplayName;

/**
 * The test classes that run a real Keycloak, in one JVM so that one Keycloak and one embedded infrastructure serve them
 * all (the build leaves them out of its own scan and runs this class instead; -DskipKeycloak leaves this out too).
 * Keycloak starts on a thread of its own while the embedded Kafka and PostgreSQL start here.
 */
@Suite
@SuiteDisplayName("A real identity provider: Keycloak signs the App's tokens, signs people into the console, and its Shared Signals revoke")
@SelectClasses({TokensKeycloakTest.class, SenalesKeycloakTest.class, ConsolaKeycloakTest.class})
class KeycloakSuiteTest {

  @BeforeSuite
  static void start() {
    Keycloak.startInBackground();
    SharedInfra.settings();
  }
}
