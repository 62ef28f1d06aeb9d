package io.periscope.model.topology;

/**
 * How kube-proxy (iptables mode) treats packets conntrack marks INVALID on their way through a
 * node: {@code strict}, its default, drops them first thing in its filter chain KUBE-FORWARD
 * ({@code -m conntrack --ctstate INVALID -j DROP}); {@code liberal}, kube-proxy run with
 * {@code --conntrack-tcp-be-liberal} ({@code conntrack.tcpBeLiberal} in its configuration), writes
 * no such rule. It matters where a reply reaches a host that never saw its request (another
 * gateway than the one the request left by): the drop ends it there, without it Submariner's own
 * rules decide.
 */
public enum KubeProxyConntrack {
    STRICT("strict"),
    LIBERAL("liberal");

    private final String yamlName;

    KubeProxyConntrack(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
