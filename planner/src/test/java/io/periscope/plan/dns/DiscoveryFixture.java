package io.periscope.plan.dns;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.ServiceRecord;
import io.periscope.planner.Planner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** The three-cluster Globalnet topology of {@code dns/discovery.yaml}, planned. */
final class DiscoveryFixture {

    final ClusterSet set;
    final ClusterSetPlan plan;

    DiscoveryFixture() {
        this(load());
    }

    DiscoveryFixture(ClusterSet set) {
        this.set = set;
        this.plan = Planner.plan(set);
    }

    static ClusterSet load() {
        try (InputStream in = DiscoveryFixture.class.getResourceAsStream("/dns/discovery.yaml")) {
            return TopologyLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "discovery.yaml");
        } catch (IOException | io.periscope.model.load.TopologyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The planned address of a service (pod empty) or of a headless service's pod. */
    Ipv4Address address(String cluster, String namespace, String service, Optional<String> pod) {
        return plan.serviceRecords().stream()
                .filter(r -> r.cluster().equals(cluster) && r.namespace().equals(namespace) && r.service().equals(service)
                        && r.pod().equals(pod))
                .map(ServiceRecord::address).findFirst().orElseThrow();
    }

    Ipv4Address service(String cluster, String namespace, String service) {
        return address(cluster, namespace, service, Optional.empty());
    }

    Ipv4Address pod(String cluster, String namespace, String service, String pod) {
        return address(cluster, namespace, service, Optional.of(pod));
    }
}
