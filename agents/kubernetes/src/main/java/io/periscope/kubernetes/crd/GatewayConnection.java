package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * One cable from this gateway to a remote gateway, as upstream reports it: {@code status} is
 * {@code connecting}, {@code connected} or {@code error}. Periscope adds
 * {@code lastTransitionTime}: when this gateway's health checker last changed its verdict on the
 * remote gateway (up or down), absent when it does not probe it (the only way to its cluster).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayConnection(String status, String statusMessage, EndpointSpec endpoint, String usingIP, Boolean usingNAT,
                                @JsonPropertyDescription("When this gateway's health checker last declared the remote gateway up or down (RFC 3339);"
                                        + " absent when it is not health-checked.") String lastTransitionTime) {

    public GatewayConnection(String status, String statusMessage, EndpointSpec endpoint, String usingIP, Boolean usingNAT) {
        this(status, statusMessage, endpoint, usingIP, usingNAT, null);
    }

    public static final String CONNECTING = "connecting";
    public static final String CONNECTED = "connected";
    public static final String ERROR = "error";
}
