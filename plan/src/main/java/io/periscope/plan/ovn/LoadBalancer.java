package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;

import java.util.List;

/**
 * An OVN load balancer VIP: a new connection to {@code vip:port} is translated to one of the
 * backends (OVN's {@code ct_lb} picks one per connection), and conntrack reverses it for the replies.
 */
public record LoadBalancer(String name, Ipv4Address vip, int port, Protocol protocol, List<Backend> backends) {

    public LoadBalancer {
        backends = List.copyOf(backends);
    }

    public record Backend(Ipv4Address address, int port) {
        @Override
        public String toString() {
            return address + ":" + port;
        }
    }

    /** As {@code ovn-nbctl lb-list} shows a VIP: {@code tcp 10.96.0.50:8080 -> 10.244.1.10:8080}. */
    public String text() {
        return protocol.lowerName() + " " + vip + ":" + port + " -> "
                + String.join(",", backends.stream().map(Backend::toString).toList());
    }
}
