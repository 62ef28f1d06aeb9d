package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What a node's route agent found of the gateways it load-balances to.
 *
 * @param gateways one entry per watched gateway, in address order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RouteAgentStatus(List<GatewayHealthStatus> gateways) {

    public RouteAgentStatus {
        gateways = gateways == null ? List.of() : List.copyOf(gateways);
    }

    /**
     * One gateway as a node sees it.
     *
     * @param gateway        {@code cluster/node}, or the nexthop address when the plan names no gateway for it
     * @param address        where the node probes it (its address on {@code vx-submariner})
     * @param status         {@code up} or {@code down}
     * @param lastTransitionTime when {@code status} last changed, RFC 3339
     * @param message        the verdict in words
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GatewayHealthStatus(String gateway, String address, String status, String lastTransitionTime, String message) {

        public static final String UP = "up";
        public static final String DOWN = "down";
    }
}
