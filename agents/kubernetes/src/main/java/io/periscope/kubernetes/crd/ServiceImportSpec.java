package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.List;

/** The MCS API's ServiceImport spec: {@code type} {@code ClusterSetIP} or {@code Headless}, the ports, the cluster-set IPs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServiceImportSpec(
        @JsonPropertyDescription("ClusterSetIP or Headless.")
        String type,
        @JsonPropertyDescription("The service's ports.")
        List<ServiceImportPort> ports,
        @JsonPropertyDescription("The cluster-set IPs (Lighthouse leaves them empty and answers each cluster's address).")
        List<String> ips) {

    public static final String CLUSTER_SET_IP = "ClusterSetIP";
    public static final String HEADLESS = "Headless";

    public ServiceImportSpec {
        ports = ports == null ? List.of() : List.copyOf(ports);
        ips = ips == null ? List.of() : List.copyOf(ips);
    }

    /** One port of an imported service; {@code protocol} is TCP, UDP or SCTP. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ServiceImportPort(String name, String protocol, String appProtocol, Integer port) {
    }
}
