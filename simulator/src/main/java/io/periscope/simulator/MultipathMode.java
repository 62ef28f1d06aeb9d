package io.periscope.simulator;

/** What the simulator does where the dataplane offers alternatives (multipath nexthops, kube-proxy endpoints). */
public enum MultipathMode {
    /** Follow every alternative; each combination is its own path. What an operator wants to see. */
    ALL_BRANCHES,
    /**
     * One path per flow: a documented hash of the flow's 5-tuple picks the nexthop (weights respected)
     * and the {@code statistic} outcome. The kernel's own choices depend on boot-time random seeds.
     */
    HASH
}
