package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;

/** Where a flow goes: a clusterset DNS name, a pod, or a raw address; each with a port (0 for ICMP). */
public sealed interface FlowTarget {

    int port();

    record DnsTarget(String name, int port) implements FlowTarget {
        @Override
        public String toString() {
            return port == 0 ? name : name + ":" + port;
        }
    }

    record PodTarget(String cluster, String namespace, String pod, int port) implements FlowTarget {
        @Override
        public String toString() {
            return cluster + "/" + namespace + "/" + pod + (port == 0 ? "" : ":" + port);
        }
    }

    record AddressTarget(Ipv4Address address, int port) implements FlowTarget {
        @Override
        public String toString() {
            return port == 0 ? address.toString() : address + ":" + port;
        }
    }
}
