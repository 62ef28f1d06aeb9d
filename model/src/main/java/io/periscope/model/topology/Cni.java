package io.periscope.model.topology;

/** The cluster's CNI as far as Submariner cares: kube-proxy in iptables mode, or OVN-Kubernetes. */
public enum Cni {
    KUBE_PROXY("kube-proxy"), OVN_KUBERNETES("ovn-kubernetes");

    private final String yamlName;

    Cni(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
