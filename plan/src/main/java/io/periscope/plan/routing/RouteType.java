package io.periscope.plan.routing;

/** Route types Periscope uses. */
public enum RouteType {
    UNICAST, BLACKHOLE, UNREACHABLE
}
