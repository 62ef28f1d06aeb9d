package io.periscope.lab.probe;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ping} does not say which address it sent from, so the probe reads the kernel's choice from
 * {@code ip -o route get}: a Globalnet gateway's own ping leaves from its CNI address and is SNATed
 * on the same host, where no capture sees the address before the SNAT.
 */
class RouteGetNamesTheSourceAnUnboundPingSendsFrom {

    @Test
    void theAddressAfterSrcIsTheSource() {
        assertThat(ProbeTraffic.sourceOf("242.1.255.251 dev vxlan-tunnel table 100 src 10.244.0.1 uid 0 \\    cache \n"))
                .contains(Ipv4Address.parse("10.244.0.1"));
        assertThat(ProbeTraffic.sourceOf("242.254.2.253 via 241.18.0.4 dev vxlan-tunnel table 100 src 10.0.64.1 uid 0 \\    cache "))
                .contains(Ipv4Address.parse("10.0.64.1"));
    }

    @Test
    void withoutASourceThereIsNoAnswer() {
        assertThat(ProbeTraffic.sourceOf("")).isEmpty();
        assertThat(ProbeTraffic.sourceOf("local 10.0.0.1 dev lo table local src")).isEmpty();
        assertThat(ProbeTraffic.sourceOf("10.0.0.1 dev eth0 src nonsense")).isEmpty();
    }
}
