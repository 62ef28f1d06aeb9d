package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One cable from this gateway to a remote gateway, as upstream reports it: {@code status} is
 * {@code connecting}, {@code connected} or {@code error}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayConnection(String status, String statusMessage, EndpointSpec endpoint, String usingIP, Boolean usingNAT) {

    public static final String CONNECTING = "connecting";
    public static final String CONNECTED = "connected";
    public static final String ERROR = "error";
}
