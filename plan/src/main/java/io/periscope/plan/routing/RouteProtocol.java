package io.periscope.plan.routing;

/**
 * Who owns a route ({@code proto} in iproute2). Submariner's routes are {@code static} as in
 * seed 004; {@code kernel} routes come with addresses; {@code boot} is the CNI's in the lab.
 */
public enum RouteProtocol {
    KERNEL("kernel"), BOOT("boot"), STATIC("static");

    private final String iprouteName;

    RouteProtocol(String iprouteName) {
        this.iprouteName = iprouteName;
    }

    public String iprouteName() {
        return iprouteName;
    }
}
