package io.periscope.dataplane.watch;

import io.periscope.dataplane.TestNamespace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a real namespace: the nf_tables generation moves by exactly one per iptables-restore
 * transaction and not at all for reads, and every kind of routing change the reconciler reads is
 * announced, while a quiet namespace announces nothing. The reconciler's shortcuts rest on both.
 */
class NetlinkKernelWatchSeesEveryChange {

    private TestNamespace namespace;
    private NetlinkKernelWatch watch;

    @BeforeEach
    void open() {
        namespace = TestNamespace.create();
        watch = NetlinkKernelWatch.openIn(namespace.name());
    }

    @AfterEach
    void close() {
        if (watch != null) {
            watch.close();
        }
        if (namespace != null) {
            namespace.close();
        }
    }

    @Test
    void theGenerationMovesByOnePerTransactionAndNotForReads() {
        namespace.runWithInput("*nat\n:SUBMARINER-GN-INGRESS - [0:0]\nCOMMIT\n", "iptables-restore", "--noflush");
        long start = watch.netfilterGeneration().orElseThrow();

        namespace.run("iptables-save");
        assertThat(watch.netfilterGeneration()).isEqualTo(OptionalLong.of(start));

        namespace.runWithInput("*nat\n-A SUBMARINER-GN-INGRESS -d 243.0.0.1/32 -j DNAT --to-destination 10.128.0.1\nCOMMIT\n",
                "iptables-restore", "--noflush");
        assertThat(watch.netfilterGeneration()).isEqualTo(OptionalLong.of(start + 1));

        namespace.runWithInput("*nat\n-A SUBMARINER-GN-INGRESS -d 243.0.0.2/32 -j DNAT --to-destination 10.128.0.2\nCOMMIT\n"
                + "*filter\n:SUBMARINER-FORWARD - [0:0]\nCOMMIT\n", "iptables-restore", "--noflush");
        assertThat(watch.netfilterGeneration()).as("two tables, two transactions").isEqualTo(OptionalLong.of(start + 3));
    }

    @Test
    void aQuietNamespaceAnnouncesNothing() {
        watch.routingChanged();
        namespace.run("ip", "-j", "route", "show", "table", "all");
        namespace.run("iptables-save");

        assertThat(watch.routingChanged()).isFalse();
    }

    @Test
    void everyKindOfRoutingChangeIsAnnounced() {
        namespace.veth("eth0", "172.18.0.10/16");
        assertThat(watch.routingChanged()).as("link and address").isTrue();
        settle();
        assertThat(watch.routingChanged()).as("asking starts a new period").isFalse();

        namespace.run("ip", "route", "add", "10.20.0.0/16", "via", "172.18.0.1", "table", "100");
        assertThat(watch.routingChanged()).as("route").isTrue();

        namespace.run("ip", "rule", "add", "pref", "100", "lookup", "100");
        assertThat(watch.routingChanged()).as("policy rule").isTrue();

        namespace.run("ip", "nexthop", "add", "id", "7", "via", "172.18.0.2", "dev", "eth0");
        assertThat(watch.routingChanged()).as("nexthop").isTrue();

        namespace.run("ip", "neigh", "add", "172.18.0.3", "lladdr", "02:00:00:00:00:03", "dev", "eth0", "nud", "permanent");
        assertThat(watch.routingChanged()).as("neighbour").isTrue();

        namespace.run("ip", "link", "add", "vx-test", "type", "vxlan", "id", "100", "dstport", "4800", "local", "172.18.0.10");
        watch.routingChanged();
        namespace.run("bridge", "fdb", "append", "00:00:00:00:00:00", "dev", "vx-test", "dst", "172.18.0.20");
        assertThat(watch.routingChanged()).as("FDB entry").isTrue();

        namespace.run("ip", "route", "del", "10.20.0.0/16", "table", "100");
        assertThat(watch.routingChanged()).as("route deleted").isTrue();
        assertThat(watch.routingChanged()).isFalse();
    }

    /**
     * A veth's own follow-ups arrive after {@code ip} has returned: the carrier once both ends are
     * up (the kernel's link watch runs later, later still on a busy machine), then each end's IPv6
     * link-local address and, a second or two on, its duplicate address detection ending (a new
     * address event and a local route). Waits until both ends carry, no address is tentative and
     * no announcement came for 300 ms, so that the next period starts quiet. Announced a second
     * later, any of them failed "asking starts a new period" about one run in a few dozen.
     */
    private void settle() {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        int quietChecks = 0;
        while (quietChecks < 6) {
            boolean carried = namespace.run("ip", "-o", "link", "show", "up").lines().filter(l -> l.contains("LOWER_UP")).count() >= 2;
            boolean tentative = !namespace.run("ip", "-o", "addr", "show", "tentative").isBlank();
            quietChecks = watch.routingChanged() || !carried || tentative ? 0 : quietChecks + 1;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the namespace's veth still announced changes 15 s after it was set up");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while the veth settled", e);
            }
        }
    }
}
