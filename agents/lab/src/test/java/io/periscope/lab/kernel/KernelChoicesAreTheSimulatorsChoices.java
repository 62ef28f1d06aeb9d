package io.periscope.lab.kernel;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.KernelMultipathHash;
import io.periscope.simulator.routing.ResilientBuckets;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's model of the kernel's multipath choice ({@link KernelMultipathHash},
 * {@link ResilientBuckets}) against this machine's kernel: router r, seeded with a random
 * {@code fib_multipath_hash_seed}, routes {@code 100.0.0.0/16} over five nexthops, then over a
 * resilient group of three, and answers {@code ip route get ... iif rc} for random 5-tuples; the
 * group's buckets are read with {@code ip nexthop bucket show} after each replacement.
 */
class KernelChoicesAreTheSimulatorsChoices {

    private static final Pattern VIA = Pattern.compile("via (\\S+)");
    private static final Pattern BUCKET = Pattern.compile("index (\\d+) .*nhid (\\d+)");

    private NamespaceRig rig;
    private final Random random = new Random();
    private int seed;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        rig = NamespaceRig.clientRouterServer("mh");
        seed = random.nextInt(Integer.MAX_VALUE - 1) + 1;
        rig.in("r", "sysctl", "-qw", "net.ipv4.fib_multipath_hash_policy=1");
        rig.in("r", "sysctl", "-qw", "net.ipv4.fib_multipath_hash_seed=" + seed);
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private Packet randomPacket() {
        Protocol protocol = random.nextBoolean() ? Protocol.UDP : Protocol.TCP;
        return Packet.of(Ipv4Address.parse("10.77.1." + (2 + random.nextInt(200))), Ipv4Address.parse("100.0." + random.nextInt(256)
                + "." + random.nextInt(256)), 1 + random.nextInt(65535), 1 + random.nextInt(65535), protocol);
    }

    private Ipv4Address kernelVia(Packet packet) {
        String answer = rig.in("r", "ip", "-o", "route", "get", packet.dst().toString(), "from", packet.src().toString(), "iif", "rc",
                "ipproto", packet.protocol() == Protocol.TCP ? "tcp" : "udp", "sport", Integer.toString(packet.sport()),
                "dport", Integer.toString(packet.dport()));
        Matcher via = VIA.matcher(answer);
        assertThat(via.find()).as("a nexthop in: %s", answer).isTrue();
        return Ipv4Address.parse(via.group(1));
    }

    @Test
    void aMultipathRoutePicksTheNexthopTheModelPicks() {
        List<CompiledNexthop> nexthops = new ArrayList<>();
        List<String> route = new ArrayList<>(List.of("ip", "route", "add", "100.0.0.0/16"));
        for (int i = 0; i < 5; i++) {
            String via = "10.77.2." + (10 + i);
            route.addAll(List.of("nexthop", "via", via, "dev", "rs", "weight", Integer.toString(1 + i % 2)));
            nexthops.add(new CompiledNexthop(Optional.of(Ipv4Address.parse(via)), "rs", 1 + i % 2, false, i));
        }
        rig.in("r", route.toArray(String[]::new));

        for (int n = 0; n < 200; n++) {
            Packet packet = randomPacket();
            Ipv4Address modelled = nexthops.get(KernelMultipathHash.select(nexthops, KernelMultipathHash.hash(seed, packet))).via().orElseThrow();
            assertThat(kernelVia(packet)).as("seed %d, %s", seed, packet).isEqualTo(modelled);
        }
    }

    @Test
    void aResilientGroupFillsMovesAndRefillsItsBucketsAsModelled() {
        for (int id = 1; id <= 3; id++) {
            rig.in("r", "ip", "nexthop", "add", "id", Integer.toString(id), "via", "10.77.2." + (10 + id), "dev", "rs");
        }
        List<NexthopGroup.Member> all = List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1), new NexthopGroup.Member(3, 1));
        List<NexthopGroup.Member> withoutTwo = List.of(all.get(0), all.get(2));
        rig.in("r", "ip", "nexthop", "add", "id", "10", "group", "1/2/3", "type", "resilient", "buckets", "32");
        rig.in("r", "ip", "route", "add", "100.0.0.0/16", "nhid", "10");
        ResilientBuckets model = ResilientBuckets.created(all, 32);
        assertThat(kernelBuckets()).as("a new group").isEqualTo(model.members());

        rig.in("r", "ip", "nexthop", "replace", "id", "10", "group", "1/3", "type", "resilient", "buckets", "32");
        model = model.replaced(withoutTwo, Set.of());
        assertThat(kernelBuckets()).as("member 2 withdrawn").isEqualTo(model.members());

        // Lookups make their buckets busy: those stay where they are when member 2 comes back.
        Set<Integer> busy = new HashSet<>();
        for (int n = 0; n < 6; n++) {
            Packet packet = randomPacket();
            int hash = KernelMultipathHash.hash(seed, packet);
            assertThat(kernelVia(packet)).isEqualTo(Ipv4Address.parse("10.77.2." + (10 + model.member(hash))));
            busy.add(model.bucket(hash));
        }
        rig.in("r", "ip", "nexthop", "replace", "id", "10", "group", "1/2/3", "type", "resilient", "buckets", "32");
        model = model.replaced(all, busy);
        assertThat(kernelBuckets()).as("member 2 back, buckets %s busy", busy).isEqualTo(model.members());
    }

    /**
     * What {@code KernelNexthopChoice} carries from one replacement to the next: a bucket a packet
     * took stays busy (its idle timer is 120 s) unless it moved, a moved bucket counts as unused
     * until a packet takes it again, and a group left with one member marks no bucket used (its route
     * has one path, so the kernel never looks at the buckets). So when the second member comes back,
     * it gets the buckets that moved away from it and any never used, in index order, but none the
     * survivor's packets used before the failure.
     */
    @Test
    void aGroupOfOneMarksNoBucketAndTheReturningMemberGetsWhatWasNotUsedSinceItMoved() {
        for (int id = 1; id <= 2; id++) {
            rig.in("r", "ip", "nexthop", "add", "id", Integer.toString(id), "via", "10.77.2." + (10 + id), "dev", "rs");
        }
        List<NexthopGroup.Member> both = List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1));
        List<NexthopGroup.Member> onlyTwo = List.of(both.get(1));
        rig.in("r", "ip", "nexthop", "add", "id", "10", "group", "1/2", "type", "resilient", "buckets", "32");
        rig.in("r", "ip", "route", "add", "100.0.0.0/16", "nhid", "10");
        ResilientBuckets model = ResilientBuckets.created(both, 32);
        assertThat(kernelBuckets()).as("a new group").isEqualTo(model.members());

        Set<Integer> used = new HashSet<>();
        for (int n = 0; n < 8; n++) {
            Packet packet = randomPacket();
            int hash = KernelMultipathHash.hash(seed, packet);
            assertThat(kernelVia(packet)).isEqualTo(Ipv4Address.parse("10.77.2." + (10 + model.member(hash))));
            used.add(model.bucket(hash));
        }
        rig.in("r", "ip", "nexthop", "replace", "id", "10", "group", "2", "type", "resilient", "buckets", "32");
        ResilientBuckets alone = model.replaced(onlyTwo, used);
        assertThat(kernelBuckets()).as("member 1 withdrawn").isEqualTo(alone.members());
        Set<Integer> stillUsed = new HashSet<>();
        for (int bucket : used) {
            if (model.members().get(bucket).equals(alone.members().get(bucket))) {
                stillUsed.add(bucket);
            }
        }

        // Packets now, every one of them through member 2, and not one bucket marked used.
        for (int n = 0; n < 32; n++) {
            assertThat(kernelVia(randomPacket())).isEqualTo(Ipv4Address.parse("10.77.2.12"));
        }
        rig.in("r", "ip", "nexthop", "replace", "id", "10", "group", "1/2", "type", "resilient", "buckets", "32");
        assertThat(kernelBuckets()).as("member 1 back; buckets %s used before and not moved", stillUsed)
                .isEqualTo(alone.replaced(both, stillUsed).members());
    }

    private List<Integer> kernelBuckets() {
        List<Integer> members = new ArrayList<>();
        for (String line : rig.in("r", "ip", "nexthop", "bucket", "show", "id", "10").split("\n")) {
            Matcher bucket = BUCKET.matcher(line);
            if (bucket.find()) {
                assertThat(Integer.parseInt(bucket.group(1))).isEqualTo(members.size());
                members.add(Integer.parseInt(bucket.group(2)));
            }
        }
        return members;
    }
}
