package io.periscope.model.topology;

import java.util.Optional;

/**
 * A service port: what clients connect to ({@code port}), where the pod listens ({@code targetPort}),
 * and optionally its name, which is what DNS SRV names ({@code _name._tcp.service...}) are made of.
 */
public record ServicePort(int port, int targetPort, Protocol protocol, Optional<String> name) {

    /** An unnamed port (a single-port service needs no name in Kubernetes). */
    public ServicePort(int port, int targetPort, Protocol protocol) {
        this(port, targetPort, protocol, Optional.empty());
    }
}
