package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.selector.LabelSelector;

import java.util.List;
import java.util.Optional;

/** A Kubernetes Service: ClusterIP (with an address) or headless (without). */
public record Service(String name, String namespace, Optional<Ipv4Address> clusterIp, LabelSelector selector, List<ServicePort> ports) {

    public Service {
        ports = List.copyOf(ports);
    }

    public boolean headless() {
        return clusterIp.isEmpty();
    }

    public String qualifiedName() {
        return namespace + "/" + name;
    }

    public Optional<ServicePort> port(int port, Protocol protocol) {
        return ports.stream().filter(p -> p.port() == port && p.protocol() == protocol).findFirst();
    }
}
