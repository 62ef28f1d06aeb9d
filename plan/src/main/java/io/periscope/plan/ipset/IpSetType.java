package io.periscope.plan.ipset;

/** The ipset types Periscope uses; both exist on the lab's kernel ({@code hash:netnet} does not). */
public enum IpSetType {
    HASH_NET("hash:net"), HASH_IP("hash:ip");

    private final String ipsetName;

    IpSetType(String ipsetName) {
        this.ipsetName = ipsetName;
    }

    public String ipsetName() {
        return ipsetName;
    }

    public static IpSetType fromIpsetName(String name) {
        for (IpSetType t : values()) {
            if (t.ipsetName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unsupported ipset type " + name);
    }
}
