package io.periscope.model.net;

/** A CIDR prefix. Only IPv4 exists today; see {@link IpAddress}. */
public sealed interface IpPrefix permits Ipv4Prefix {

    static IpPrefix parse(String text) {
        return Ipv4Prefix.parse(text);
    }
}
