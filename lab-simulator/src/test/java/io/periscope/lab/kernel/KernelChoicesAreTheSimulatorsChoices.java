package io.periscope.lab.kernel;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.KernelMultipathHash;
import io.periscope.simulator.routing.MultipathHashSettings;
import io.periscope.simulator.routing.ResilientBuckets;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
 * group's buckets are read with {@code ip nexthop bucket show} after each replacement. Every hash
 * policy ({@code fib_multipath_hash_policy} 0 to 3, policy 3 with the fields Periscope programs and
 * with random ones) is compared the same way.
 */
class KernelChoicesAreTheSimulatorsChoices {

    private static final Pattern VIA = Pattern.compile("via (\\S+)");
    /** Outer fields whose values the random packets draw: source and destination address, source and destination port. */
    private static final List<Integer> VARYING_FIELDS = List.of(MultipathHashSettings.SRC_IP, MultipathHashSettings.DST_IP,
            MultipathHashSettings.SRC_PORT, MultipathHashSettings.DST_PORT);
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
        return randomPacket(random.nextBoolean() ? Protocol.UDP : Protocol.TCP);
    }

    private Packet randomPacket(Protocol protocol) {
        return Packet.of(Ipv4Address.parse("10.77.1." + (2 + random.nextInt(200))), Ipv4Address.parse("100.0." + random.nextInt(256)
                + "." + random.nextInt(256)), 1 + random.nextInt(65535), 1 + random.nextInt(65535), protocol);
    }

    private Ipv4Address kernelVia(Packet packet) {
        List<String> get = new ArrayList<>(List.of("ip", "-o", "route", "get", packet.dst().toString(), "from", packet.src().toString(),
                "iif", "rc", "ipproto", packet.protocol().name().toLowerCase(java.util.Locale.ROOT)));
        if (packet.protocol().hasPorts()) {
            get.addAll(List.of("sport", Integer.toString(packet.sport()), "dport", Integer.toString(packet.dport())));
        }
        String answer = rig.in("r", get.toArray(String[]::new));
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

    /**
     * Each policy over the same five weighted nexthops: 0 (addresses), 1 (addresses, protocol, ports),
     * 2 (the inner addresses, which for these unencapsulated packets are their own), 3 with the fields
     * Periscope programs for {@code l4-inner} (0x0df7) and with random outer and inner fields; TCP,
     * UDP and ICMP packets. A forwarded packet ({@code iif}) under policy 3 is hashed with the inner
     * hash folded in, which the model must do too.
     */
    @ParameterizedTest(name = "policy {0} fields {1}")
    @CsvSource({"0, -1", "1, -1", "2, -1", "3, 0x0df7", "3, random"})
    void everyHashPolicyPicksTheNexthopTheModelPicks(int policy, String fieldsText) {
        int fields = switch (fieldsText) {
            case "-1" -> MultipathHashSettings.DEFAULT_FIELDS;
            // Random fields, with at least one that differs between the random packets: a draw such as 0x0008 (IPv6's flow
            // label) or 0x0100 (the inner protocol) hashes every packet alike, and the check below would see one nexthop.
            case "random" -> random.nextInt(0x1000) | VARYING_FIELDS.get(random.nextInt(VARYING_FIELDS.size()));
            default -> Integer.decode(fieldsText);
        };
        rig.in("r", "sysctl", "-qw", "net.ipv4.fib_multipath_hash_policy=" + policy);
        if (policy == 3) {
            rig.in("r", "sysctl", "-qw", "net.ipv4.fib_multipath_hash_fields=" + fields);
        }
        MultipathHashSettings settings = new MultipathHashSettings(policy, fields);
        List<CompiledNexthop> nexthops = new ArrayList<>();
        List<String> route = new ArrayList<>(List.of("ip", "route", "add", "100.0.0.0/16"));
        for (int i = 0; i < 5; i++) {
            String via = "10.77.2." + (10 + i);
            route.addAll(List.of("nexthop", "via", via, "dev", "rs", "weight", Integer.toString(1 + i % 2)));
            nexthops.add(new CompiledNexthop(Optional.of(Ipv4Address.parse(via)), "rs", 1 + i % 2, false, i));
        }
        rig.in("r", route.toArray(String[]::new));

        Set<Ipv4Address> taken = new HashSet<>();
        for (int n = 0; n < 150; n++) {
            Protocol protocol = List.of(Protocol.TCP, Protocol.UDP, Protocol.ICMP).get(n % 3);
            Packet packet = randomPacket(protocol);
            Ipv4Address modelled = nexthops.get(KernelMultipathHash.select(nexthops, KernelMultipathHash.hash(settings, seed, packet, true)))
                    .via().orElseThrow();
            Ipv4Address kernel = kernelVia(packet);
            taken.add(kernel);
            assertThat(kernel).as("policy %d fields 0x%x seed %d, %s", policy, fields, seed, packet).isEqualTo(modelled);
        }
        // Random packets over five nexthops use several of them: the comparison was not of one constant choice.
        assertThat(taken).hasSizeGreaterThan(1);
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
