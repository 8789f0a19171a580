package ccp.app;

import ccp.platform.config.PgRoles;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Every process group has its PostgreSQL login, created by db/bootstrap.sql, owning exactly the schemas it migrates")
class RoleLoginsTest {

  @Test
  @DisplayName("each role's id is a login of PgRoles and of bootstrap.sql, and no two roles own one schema")
  void everyRoleHasItsLogin() {
    String bootstrap = PgRoles.bootstrapSql();
    Set<String> owned = new HashSet<>();
    for (Role role : Role.values()) {
      assertThat(PgRoles.LOGIN).contains(role.id());
      assertThat(bootstrap).contains("'" + role.id() + "'");
      for (String schema : role.schemas()) {
        assertThat(schema).as("%s migrates the schema its login owns", role).isEqualTo(role.id());
        assertThat(owned.add(schema)).as("%s is owned by one role", schema).isTrue();
      }
    }
    Set<String> logins = new HashSet<>(Set.of("lab"));
    Arrays.stream(Role.values()).map(Role::id).forEach(logins::add);
    assertThat(PgRoles.LOGIN).as("the roles' logins and the lab's, no other").containsExactlyInAnyOrderElementsOf(logins);
  }
}
