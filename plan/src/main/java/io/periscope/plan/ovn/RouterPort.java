package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.link.MacAddress;

/** A logical router port: its address in {@code network} (which the router reaches directly), on logical switch {@code logicalSwitch}. */
public record RouterPort(String name, MacAddress mac, Ipv4Address address, Ipv4Prefix network, String logicalSwitch) {

    /** As {@code ovn-nbctl lrp-add} takes it: {@code 169.254.254.1/29}. */
    public String networkText() {
        return address + "/" + network.length();
    }
}
