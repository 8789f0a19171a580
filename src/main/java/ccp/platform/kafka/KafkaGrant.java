package ccp.platform.kafka;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one role's Kafka principal ({@code ccp-<role>}) may do on a broker that denies everything else: write its
 * topics, read each topic it consumes with its own consumer group, and describe the groups it watches and the topics
 * whose offsets it reads. READ and WRITE imply DESCRIBE on the same topic, and WRITE on any topic lets an idempotent
 * producer start (Kafka 3.x), so nothing more is granted.
 *
 * @param role     the role's id ({@code pedidos}); its principal is {@link #user()}
 * @param writes   the topics it produces to (a consumer's dead letters go to {@code cola.fallidos})
 * @param consumes consumer group → the topic that group reads
 * @param watches  consumer groups it only describes (the Monitor's health probe; Pedidos' reading of the chain's lag)
 * @param describes topics it only describes: their end offsets, against a watched group's committed ones
 */
public record KafkaGrant(String role, Set<String> writes, Map<String, String> consumes, Set<String> watches,
                         Set<String> describes) {

  public KafkaGrant {
    writes = Set.copyOf(writes);
    consumes = Map.copyOf(consumes);
    watches = Set.copyOf(watches);
    describes = Set.copyOf(describes);
  }

  /** The SCRAM user of role {@code role}. */
  public static String userOf(String role) {
    return "ccp-" + role;
  }

  public String user() {
    return userOf(role);
  }

  /** The topics it reads. */
  public Set<String> reads() {
    return Set.copyOf(consumes.values());
  }

  /** Every topic it touches: those whose partitions it needs led to work. */
  public Set<String> topics() {
    Set<String> all = new LinkedHashSet<>(writes);
    all.addAll(consumes.values());
    return all;
  }

  /** The ACLs, each an ALLOW from any host. */
  public List<AclBinding> bindings() {
    List<AclBinding> acls = new ArrayList<>();
    writes.forEach(topic -> acls.add(allow(ResourceType.TOPIC, topic, AclOperation.WRITE)));
    reads().forEach(topic -> acls.add(allow(ResourceType.TOPIC, topic, AclOperation.READ)));
    consumes.keySet().forEach(group -> acls.add(allow(ResourceType.GROUP, group, AclOperation.READ)));
    watches.forEach(group -> acls.add(allow(ResourceType.GROUP, group, AclOperation.DESCRIBE)));
    describes.forEach(topic -> acls.add(allow(ResourceType.TOPIC, topic, AclOperation.DESCRIBE)));
    return acls;
  }

  private AclBinding allow(ResourceType type, String name, AclOperation operation) {
    return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
      new AccessControlEntry("User:" + user(), "*", operation, AclPermissionType.ALLOW));
  }
}
