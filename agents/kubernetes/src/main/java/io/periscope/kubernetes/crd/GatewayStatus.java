package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * Upstream's Gateway status: whether this gateway is {@code active} or {@code passive} (waiting on
 * the leadership lease), its own Endpoint, its connections, and the last failure, if any.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayStatus(String version, String haStatus, EndpointSpec localEndpoint, String statusFailure,
                            List<GatewayConnection> connections) {

    public static final String ACTIVE = "active";
    public static final String PASSIVE = "passive";

    public GatewayStatus {
        connections = connections == null ? List.of() : List.copyOf(connections);
    }
}
