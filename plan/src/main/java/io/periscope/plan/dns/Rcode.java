package io.periscope.plan.dns;

/** The response codes the resolver gives (RFC 1035 section 4.1.1). */
public enum Rcode {
    /**
     * The name exists; the answer may still be empty: NODATA (the name has no record of the asked type), or a
     * service no cluster is left to answer for, which Lighthouse also answers empty with NOERROR.
     */
    NOERROR(0),
    /** The name does not exist in the zone: nothing exported has it. */
    NXDOMAIN(3),
    /** The name is outside {@code clusterset.local}: this server answers for that zone only. */
    REFUSED(5);

    private final int code;

    Rcode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
