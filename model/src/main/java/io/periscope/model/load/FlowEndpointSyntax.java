package io.periscope.model.load;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;

import java.util.Optional;

/**
 * The text forms of a flow's two ends, shared by the topology file's {@code flows[]} and the command
 * line's {@code --from} / {@code --to}. Only the syntax is checked here; whether the named cluster, pod
 * or node exists is {@link TopologyValidator}'s business.
 */
public final class FlowEndpointSyntax {

    public static final String SOURCE_FORMS = "cluster/namespace/pod (a pod) or cluster/node (a node's own network)";

    public static final String TARGET_FORMS = "service.namespace.svc.clusterset.local:port (an exported service), "
            + "cluster.service.namespace.svc.clusterset.local:port (one cluster's export of it), "
            + "pod.cluster.service.namespace.svc.clusterset.local:port (a pod of an exported headless service), "
            + "cluster/namespace/pod:port, or a.b.c.d:port (leave out ':port' for icmp)";

    /** What every clusterset DNS name ends with (the Multi-Cluster Services API's domain). */
    public static final String CLUSTERSET_DOMAIN = FlowTarget.DnsTarget.CLUSTERSET_DOMAIN;

    private FlowEndpointSyntax() {
    }

    /** Parses a flow's {@code from}; throws {@link IllegalArgumentException} naming the text when it has no known form. */
    public static FlowSource parseSource(String text) {
        String trimmed = text.trim();
        if (trimmed.contains(":")) {
            throw new IllegalArgumentException("flow source '" + text + "' has a port; a flow's source port is chosen by the sender");
        }
        String[] parts = trimmed.split("/", -1);
        if (!allNonEmpty(parts)) {
            throw new IllegalArgumentException("'" + text + "' is not a flow source");
        }
        return switch (parts.length) {
            case 3 -> new FlowSource.PodSource(parts[0], parts[1], parts[2]);
            case 2 -> new FlowSource.NodeSource(parts[0], parts[1]);
            default -> throw new IllegalArgumentException("'" + text + "' is not a flow source");
        };
    }

    /**
     * Parses a flow's {@code to}; the port is 0 when none is written. Throws {@link IllegalArgumentException}
     * naming the text when it has no known form or a port outside 1..65535.
     */
    public static FlowTarget parseTarget(String text) {
        String trimmed = text.trim();
        String host = trimmed;
        int port = 0;
        int colon = trimmed.lastIndexOf(':');
        if (colon >= 0) {
            host = trimmed.substring(0, colon);
            port = parsePort(text, trimmed.substring(colon + 1));
        }
        if (host.contains("/")) {
            String[] parts = host.split("/", -1);
            if (parts.length != 3 || !allNonEmpty(parts)) {
                throw new IllegalArgumentException("'" + text + "' is not a flow target: a pod is written cluster/namespace/pod");
            }
            return new FlowTarget.PodTarget(parts[0], parts[1], parts[2], port);
        }
        if (!host.isEmpty() && host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'))) {
            try {
                return new FlowTarget.AddressTarget(Ipv4Address.parse(host), port);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "' is not a flow target: " + e.getMessage(), e);
            }
        }
        if (host.endsWith(".clusterset.local")) {
            if (!host.endsWith(CLUSTERSET_DOMAIN)) {
                throw new IllegalArgumentException("'" + text + "' is not a service's clusterset name: those end in " + CLUSTERSET_DOMAIN.substring(1));
            }
            String[] labels = host.substring(0, host.length() - CLUSTERSET_DOMAIN.length()).split("\\.", -1);
            if (labels.length < 2 || labels.length > 4 || !allNonEmpty(labels)) {
                throw new IllegalArgumentException("'" + text + "' is not a service's clusterset name: expected service.namespace"
                        + CLUSTERSET_DOMAIN + ", cluster.service.namespace" + CLUSTERSET_DOMAIN + " or pod.cluster.service.namespace"
                        + CLUSTERSET_DOMAIN);
            }
            return new FlowTarget.DnsTarget(host, port);
        }
        throw new IllegalArgumentException("'" + text + "' is not a flow target");
    }

    /**
     * The cluster a name asks for by name, if it does: {@code cluster.service.namespace.svc.clusterset.local}
     * (one cluster's export, the name the reachability matrix asks) or a per-pod headless name
     * ({@code pod.cluster.service.namespace.svc.clusterset.local}).
     */
    public static Optional<String> clusterOf(FlowTarget.DnsTarget target) {
        return target.askedCluster();
    }

    private static int parsePort(String text, String digits) {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("'" + text + "' has port '" + digits + "', which is not a number from 1 to 65535");
        }
        int port = Integer.parseInt(digits);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("'" + text + "' has port " + port + ", outside 1..65535");
        }
        return port;
    }

    private static boolean allNonEmpty(String[] parts) {
        for (String part : parts) {
            if (part.isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
