package io.periscope.kubernetes.dns;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.periscope.kubernetes.testing.DeployedRoles;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/'s RBAC for the {@code periscope-dns} service account against what the DNS server really
 * asks the API server for: every request it makes while starting and following a change, recorded
 * by the mock server, must be allowed by a rule bound to the account (so removing a verb or a
 * resource from its roles fails here), and every rule must be used by some request (so the roles
 * grant exactly what it reads, and only list and watch).
 */
class DnsServerRoleGrantsEveryRequestItMakesCrudTest {

    private static final String AGENT = "periscope-dns-under-test";

    private MockCluster cluster;
    private DnsAgent dns;

    @AfterEach
    void stop() {
        if (dns != null) {
            dns.close();
        }
        cluster.close();
    }

    @Test
    void everyRequestIsGrantedAndEveryGrantIsUsed() {
        cluster = new MockCluster();
        LiveObjectsFactory objects = new LiveObjectsFactory(cluster.client());
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"), 80);
        cluster.takeRequests();

        dns = new DnsAgent(cluster.newClient(AGENT), new DnsAgentSettings("cluster1", MockCluster.SUBMARINER_NAMESPACE,
                new InetSocketAddress("127.0.0.1", 0), 1, Duration.ofSeconds(30))).start();
        long before = dns.passes();
        objects.export("default", "nginx");
        await("the server rebuilt its zone after the export", () -> dns.passes() > before);

        List<DeployedRoles.Access> accesses = new ArrayList<>();
        for (RecordedRequest request : cluster.takeRequests()) {
            if (AGENT.equals(request.getHeader("User-Agent"))) {
                accesses.add(DeployedRoles.access(request));
            }
        }
        assertThat(accesses).as("the server's requests were recorded").isNotEmpty();

        DeployedRoles roles = DeployedRoles.of("periscope-dns");
        Set<String> refused = new LinkedHashSet<>();
        for (DeployedRoles.Access access : accesses) {
            if (!roles.allows(access.verb(), access.group(), access.resource(), access.namespace())) {
                refused.add(access.toString());
            }
        }
        assertThat(refused).as("requests of the DNS server that deploy/rbac.yaml does not grant periscope-dns").isEmpty();

        for (DeployedRoles.Grant grant : roles.grants()) {
            assertThat(grant.verbs()).as(grant.role() + " is read-only").isSubsetOf("list", "watch");
            for (String group : grant.apiGroups()) {
                for (String resource : grant.resources()) {
                    for (String verb : grant.verbs()) {
                        assertThat(accesses).as(grant.role() + " grants " + verb + " " + group + "/" + resource + ", which the server never asks for")
                                .anyMatch(a -> a.verb().equals(verb) && a.group().equals(group) && a.resource().equals(resource)
                                        && (grant.namespace().isEmpty() || grant.namespace().equals(a.namespace())));
                    }
                }
            }
        }
    }
}
