package io.periscope.model.topology;

/**
 * Who owns a cluster's egress addresses when it has several active gateways and Globalnet.
 *
 * <p>{@code SHARED} is seed 004 as written: only the ClusterGlobalEgressIPs belong to one gateway;
 * a GlobalEgressIP's addresses and a headless pod's own global IP are every gateway's, so a reply
 * may reach a gateway without the connection's NAT state. {@code PER_GATEWAY} is Periscope's
 * design closing that gap: each GlobalEgressIP gets one slice per active gateway, each headless
 * pod's address one owning gateway that its traffic is steered to, and remote gateways route every
 * such address to its owner (docs/plan.md, "Per-gateway egress").
 */
public enum EgressOwnership {
    SHARED("shared"), PER_GATEWAY("per-gateway");

    private final String yamlName;

    EgressOwnership(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
