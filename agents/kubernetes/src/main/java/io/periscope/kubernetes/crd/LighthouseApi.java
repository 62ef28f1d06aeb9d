package io.periscope.kubernetes.crd;

/**
 * The labels Lighthouse's agent puts on the EndpointSlices it writes for an exported service, one
 * slice per exporting cluster. The service-export sync writes them and the DNS server reads them, so
 * the names live here once; they are also what an installed Lighthouse writes, so either can feed
 * the other.
 */
public final class LighthouseApi {

    /** The exporting cluster (the Multi-Cluster Services API's name). */
    public static final String SOURCE_CLUSTER_LABEL = "multicluster.kubernetes.io/source-cluster";
    /** The exported service's name (the Multi-Cluster Services API's name). */
    public static final String SERVICE_NAME_LABEL = "multicluster.kubernetes.io/service-name";
    /** The exported service's namespace in the exporting cluster (Lighthouse's own name). */
    public static final String SOURCE_NAMESPACE_LABEL = "lighthouse.submariner.io/sourceNamespace";
    /** Kubernetes' label naming the controller that owns an EndpointSlice, and Lighthouse's agent's value. */
    public static final String MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
    public static final String MANAGED_BY_LIGHTHOUSE = "lighthouse-agent.submariner.io";

    private LighthouseApi() {
    }
}
