package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;

/** Where a flow goes: a clusterset DNS name, a pod, or a raw address; each with a port (0 for ICMP). */
public sealed interface FlowTarget {

    int port();

    record DnsTarget(String name, int port) implements FlowTarget {

        /** The zone every clusterset name ends in. */
        public static final String CLUSTERSET_DOMAIN = ".svc.clusterset.local";

        /**
         * The labels before {@link #CLUSTERSET_DOMAIN}: {@code [service, namespace]},
         * {@code [cluster, service, namespace]} or {@code [pod, cluster, service, namespace]}.
         */
        public String[] labels() {
            return name.substring(0, name.length() - CLUSTERSET_DOMAIN.length()).split("\\.", -1);
        }

        /**
         * The cluster the name asks for, if it names one: a cluster-specific service name (one cluster's
         * export) or a per-pod headless name ({@code pod.cluster.service.namespace.svc.clusterset.local}).
         */
        public java.util.Optional<String> askedCluster() {
            String[] labels = labels();
            return switch (labels.length) {
                case 3 -> java.util.Optional.of(labels[0]);
                case 4 -> java.util.Optional.of(labels[1]);
                default -> java.util.Optional.empty();
            };
        }

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
