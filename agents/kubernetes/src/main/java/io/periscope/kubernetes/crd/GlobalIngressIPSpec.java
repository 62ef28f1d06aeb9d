package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LocalObjectReference;

/**
 * What a GlobalIngressIP gives an address to: {@code ClusterIPService} (an exported service,
 * {@code serviceRef}) or {@code HeadlessServicePod} (a pod behind an exported headless service,
 * {@code podRef}, with {@code serviceRef} naming the service).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GlobalIngressIPSpec(
        @JsonPropertyDescription("ClusterIPService or HeadlessServicePod.")
        String target,
        @JsonPropertyDescription("The exported service.")
        LocalObjectReference serviceRef,
        @JsonPropertyDescription("The pod, for HeadlessServicePod.")
        LocalObjectReference podRef) {

    public static final String CLUSTER_IP_SERVICE = "ClusterIPService";
    public static final String HEADLESS_SERVICE_POD = "HeadlessServicePod";
}
