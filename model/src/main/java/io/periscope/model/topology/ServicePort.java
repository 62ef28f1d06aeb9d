package io.periscope.model.topology;

/** A service port: what clients connect to ({@code port}) and where the pod listens ({@code targetPort}). */
public record ServicePort(int port, int targetPort, Protocol protocol) {
}
