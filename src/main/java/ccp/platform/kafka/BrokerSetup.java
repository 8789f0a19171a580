package ccp.platform.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the embedded broker's operator does once it has started, as its super user: the roles' SCRAM users that its
 * metadata lacks (a role added after the directory was formatted), the topics of DESIGN.md §3, and every role's ACLs.
 * In Kubernetes the Strimzi operator does the same from the KafkaUser and KafkaTopic resources; no role may create
 * anything itself.
 */
public final class BrokerSetup {

  private static final Logger LOG = LoggerFactory.getLogger(BrokerSetup.class);
  private static final long TIMEOUT_S = 30;

  private BrokerSetup() {}

  /** Blocks until done; each step is idempotent, so it runs on every start. */
  public static void run(String bootstrap, KafkaCredentials credentials, TopicsConfig topics, Collection<KafkaGrant> grants)
    throws InterruptedException, ExecutionException, TimeoutException {
    Map<String, Object> config = new HashMap<>(KafkaConfig.client(bootstrap, "admin", credentials.admin()));
    config.put("client.id", "ccp-infra-setup");
    try (Admin admin = Admin.create(config)) {
      addMissingUsers(admin, credentials.users());
      Topics.ensure(admin, topics);
      List<AclBinding> acls = grants.stream().flatMap(g -> g.bindings().stream()).toList();
      admin.createAcls(acls).all().get(TIMEOUT_S, TimeUnit.SECONDS);
      awaitOnBroker(admin, acls);
      LOG.info("Kafka principals {} hold their {} ACLs", grants.stream().map(KafkaGrant::user).toList(), acls.size());
    }
  }

  /**
   * The controller has committed the ACLs; the broker applies them once it has read them from the metadata log, and
   * until then would refuse a role that starts right away. It answers DescribeAcls from that very authorizer. The users
   * added before them come earlier in the same log, so they are in force by then too.
   */
  private static void awaitOnBroker(Admin admin, List<AclBinding> acls) throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
    while (!admin.describeAcls(AclBindingFilter.ANY).values().get(TIMEOUT_S, TimeUnit.SECONDS).containsAll(acls)) {
      if (System.nanoTime() > deadline) throw new TimeoutException("the broker did not apply its ACLs within " + TIMEOUT_S + " s");
      Thread.sleep(50);
    }
  }

  private static void addMissingUsers(Admin admin, Map<String, String> users)
    throws InterruptedException, ExecutionException, TimeoutException {
    Set<String> known = Set.copyOf(admin.describeUserScramCredentials().users().get(TIMEOUT_S, TimeUnit.SECONDS));
    List<UserScramCredentialAlteration> missing = users.entrySet().stream()
      .filter(u -> !known.contains(u.getKey()))
      .<UserScramCredentialAlteration>map(u -> new UserScramCredentialUpsertion(u.getKey(),
        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), u.getValue()))
      .toList();
    if (missing.isEmpty()) return;
    LOG.info("Adding Kafka users {}", missing.stream().map(UserScramCredentialAlteration::user).toList());
    admin.alterUserScramCredentials(missing).all().get(TIMEOUT_S, TimeUnit.SECONDS);
  }
}
