package io.periscope.model.topology;

/**
 * What the cluster's CNI does to pod traffic leaving the pod network: nothing (routed CNIs such as
 * Calico without natOutgoing), or masquerade to the node's address whatever the destination outside
 * the pod CIDRs (flannel, kindnet, Calico with natOutgoing). Submariner's SUBMARINER-POSTROUTING
 * ACCEPT rules exist to keep cross-cluster traffic away from such a rule.
 */
public enum CniMasquerade {
    NONE("none"),
    OUTSIDE_POD_CIDRS("outside-pod-cidrs");

    private final String yamlName;

    CniMasquerade(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
