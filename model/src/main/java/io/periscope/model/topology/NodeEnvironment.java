package io.periscope.model.topology;

/**
 * How a cluster's nodes are set up before Submariner arrives, where it changes what happens to
 * packets: the distribution's reverse-path filtering, the CNI's masquerading and kube-proxy's
 * handling of INVALID packets, and the multipath hash policy Periscope programs on them.
 */
public record NodeEnvironment(RpFilter rpFilter, CniMasquerade cniMasquerade, MultipathHashPolicy multipathHash,
                              KubeProxyConntrack kubeProxyConntrack) {

    /** The kernel's defaults, a CNI that does not masquerade and kube-proxy's defaults. */
    public static final NodeEnvironment DEFAULT = new NodeEnvironment(RpFilter.OFF, CniMasquerade.NONE);

    public NodeEnvironment {
        java.util.Objects.requireNonNull(multipathHash, "multipathHash");
        java.util.Objects.requireNonNull(kubeProxyConntrack, "kubeProxyConntrack");
    }

    /** An environment with kube-proxy's default, which drops INVALID packets in KUBE-FORWARD. */
    public NodeEnvironment(RpFilter rpFilter, CniMasquerade cniMasquerade, MultipathHashPolicy multipathHash) {
        this(rpFilter, cniMasquerade, multipathHash, KubeProxyConntrack.STRICT);
    }

    /** An environment with the multipath hash policy Periscope programs by default. */
    public NodeEnvironment(RpFilter rpFilter, CniMasquerade cniMasquerade) {
        this(rpFilter, cniMasquerade, MultipathHashPolicy.DEFAULT);
    }

    public NodeEnvironment withMultipathHash(MultipathHashPolicy policy) {
        return new NodeEnvironment(rpFilter, cniMasquerade, policy, kubeProxyConntrack);
    }

    public NodeEnvironment withKubeProxyConntrack(KubeProxyConntrack conntrack) {
        return new NodeEnvironment(rpFilter, cniMasquerade, multipathHash, conntrack);
    }
}
