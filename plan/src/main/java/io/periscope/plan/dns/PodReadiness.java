package io.periscope.plan.dns;

/**
 * Which backends of the exported services are ready to receive traffic. A topology file says
 * nothing about readiness, so there every pod is ready; on a live cluster the service's
 * EndpointSlices say it: a headless service answers its ready pods only, as Kubernetes' own DNS
 * does, and a ClusterSetIP service whose endpoints are all unready leaves its cluster out of the
 * answer, as Lighthouse does.
 */
@FunctionalInterface
public interface PodReadiness {

    /** Every pod the plan has is ready: the topology file, the simulator and {@code periscope dns}. */
    PodReadiness ALL = (cluster, namespace, service, pod) -> true;

    boolean ready(String cluster, String namespace, String service, String pod);

    /**
     * Whether a ClusterSetIP service has at least one ready backend in {@code cluster}. Unless told
     * otherwise it has: only a live cluster's EndpointSlices can say it has none.
     */
    default boolean serviceReady(String cluster, String namespace, String service) {
        return true;
    }
}
