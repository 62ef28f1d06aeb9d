package io.periscope.kubernetes.nodeplan;

import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.CableDriver;

/** The model's Endpoint as the CRD carries it. */
public final class EndpointConversion {

    private EndpointConversion() {
    }

    /** The name of the Endpoint object a gateway publishes (the model's naming, upstream's). */
    public static String endpointName(String clusterId, String hostname) {
        return new Endpoint(clusterId, hostname, Ipv4Address.ANY, java.util.Optional.empty(), java.util.List.of(),
                CableDriver.VXLAN, java.util.Map.of(), java.util.List.of(), java.util.Optional.empty()).name();
    }

    /**
     * Upstream's cable name: {@code submariner-cable-<cluster>-<private IP with dashes>}; upstream's
     * {@code healthCheckIP}: the CNI address, or with Globalnet the gateway's own global IP (absent
     * until the Globalnet controller has annotated the gateway's Gateway object with one).
     */
    public static EndpointSpec toSpec(Endpoint endpoint) {
        return new EndpointSpec(endpoint.clusterId(),
                "submariner-cable-" + endpoint.clusterId() + "-" + endpoint.privateIp().toString().replace('.', '-'),
                endpoint.healthCheckIp().map(Ipv4Address::toString).orElse(null), endpoint.hostname(), endpoint.subnets().stream().map(Ipv4Prefix::toString).toList(),
                endpoint.privateIp().toString(), endpoint.publicIp().orElse(endpoint.privateIp()).toString(), false,
                endpoint.backend().yamlName(), endpoint.backendConfig(), endpoint.allocatedIPs().stream().map(Ipv4Address::toString).toList());
    }
}
