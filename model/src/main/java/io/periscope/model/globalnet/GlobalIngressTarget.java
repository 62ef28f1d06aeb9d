package io.periscope.model.globalnet;

/** What a GlobalIngressIP points at; the names are upstream's {@code TargetType} values. */
public enum GlobalIngressTarget {
    CLUSTER_IP_SERVICE("ClusterIPService"), HEADLESS_SERVICE_POD("HeadlessServicePod");

    private final String upstreamName;

    GlobalIngressTarget(String upstreamName) {
        this.upstreamName = upstreamName;
    }

    public String upstreamName() {
        return upstreamName;
    }
}
