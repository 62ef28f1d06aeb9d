package io.periscope.plan.dns;

/**
 * Which pods of an exported headless service are ready to receive traffic. A topology file says
 * nothing about readiness, so there every pod is ready; on a live cluster the service's
 * EndpointSlices say it, and only ready pods are answered, as Kubernetes' own DNS does for headless
 * services.
 */
@FunctionalInterface
public interface PodReadiness {

    /** Every pod the plan has is ready: the topology file, the simulator and {@code periscope dns}. */
    PodReadiness ALL = (cluster, namespace, service, pod) -> true;

    boolean ready(String cluster, String namespace, String service, String pod);
}
