package io.periscope.model.topology;

/**
 * How a cluster's nodes are set up before Submariner arrives, where it changes what happens to
 * packets: the distribution's reverse-path filtering and the CNI's masquerading, and the multipath
 * hash policy Periscope programs on them.
 */
public record NodeEnvironment(RpFilter rpFilter, CniMasquerade cniMasquerade, MultipathHashPolicy multipathHash) {

    /** The kernel's defaults and a CNI that does not masquerade: what Periscope assumed before. */
    public static final NodeEnvironment DEFAULT = new NodeEnvironment(RpFilter.OFF, CniMasquerade.NONE);

    public NodeEnvironment {
        java.util.Objects.requireNonNull(multipathHash, "multipathHash");
    }

    /** An environment with the multipath hash policy Periscope programs by default. */
    public NodeEnvironment(RpFilter rpFilter, CniMasquerade cniMasquerade) {
        this(rpFilter, cniMasquerade, MultipathHashPolicy.DEFAULT);
    }

    public NodeEnvironment withMultipathHash(MultipathHashPolicy policy) {
        return new NodeEnvironment(rpFilter, cniMasquerade, policy);
    }
}
