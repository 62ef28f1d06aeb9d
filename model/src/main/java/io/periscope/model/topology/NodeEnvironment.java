package io.periscope.model.topology;

/**
 * How a cluster's nodes are set up before Submariner arrives, where it changes what happens to
 * packets: the distribution's reverse-path filtering and the CNI's masquerading.
 */
public record NodeEnvironment(RpFilter rpFilter, CniMasquerade cniMasquerade) {

    /** The kernel's defaults and a CNI that does not masquerade: what Periscope assumed before. */
    public static final NodeEnvironment DEFAULT = new NodeEnvironment(RpFilter.OFF, CniMasquerade.NONE);
}
