package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.GlobalEgressIP;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GlobalIpPoolTest {

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static GlobalIpPool pool(String cidr) {
        return new GlobalIpPool(Ipv4Prefix.parse(cidr));
    }

    private static List<Ipv4Address> allocated(AllocationResult result) {
        assertThat(result).isInstanceOf(AllocationResult.Allocated.class);
        return ((AllocationResult.Allocated) result).addresses();
    }

    private static AllocationResult.Failed failed(AllocationResult result) {
        assertThat(result).isInstanceOf(AllocationResult.Failed.class);
        return (AllocationResult.Failed) result;
    }

    @Test
    void poolIsTheCidrWithoutNetworkAndBroadcast() {
        GlobalIpPool pool = pool("242.254.1.0/24");

        assertThat(pool.size()).isEqualTo(254);
        assertThat(pool.freeCount()).isEqualTo(254);
        assertThat(pool.contains(ip("242.254.1.0"))).isFalse();
        assertThat(pool.contains(ip("242.254.1.1"))).isTrue();
        assertThat(pool.contains(ip("242.254.1.254"))).isTrue();
        assertThat(pool.contains(ip("242.254.1.255"))).isFalse();
        assertThat(pool.contains(ip("242.254.2.1"))).isFalse();
    }

    @Test
    void singleAddressComesFromTheTopOfTheFreeSpace() {
        GlobalIpPool pool = pool("242.254.2.0/24");

        assertThat(allocated(pool.allocate("svc-a", 1))).containsExactly(ip("242.254.2.254"));
        assertThat(allocated(pool.allocate("svc-b", 1))).containsExactly(ip("242.254.2.253"));
        pool.release(List.of(ip("242.254.2.254")));
        assertThat(allocated(pool.allocate("svc-c", 1))).containsExactly(ip("242.254.2.254"));
    }

    @Test
    void singleAddressSkipsTakenTopAddresses() {
        GlobalIpPool pool = pool("242.254.2.0/24");
        pool.reserve("restored", List.of(ip("242.254.2.254"), ip("242.254.2.253"), ip("242.254.2.251")));

        assertThat(allocated(pool.allocate("svc", 1))).containsExactly(ip("242.254.2.252"));
    }

    @Test
    void blockIsTheLowestContiguousFreeRun() {
        GlobalIpPool pool = pool("242.254.1.0/24");

        assertThat(allocated(pool.allocate("gw-1", 8))).containsExactlyElementsOf(
                new Ipv4Range(ip("242.254.1.1"), ip("242.254.1.8")).addresses());
        assertThat(allocated(pool.allocate("gw-2", 8)).getFirst()).isEqualTo(ip("242.254.1.9"));

        // free now: .3 alone, .10-.12, .17 upwards; each block lands in the lowest run long enough
        pool.release(List.of(ip("242.254.1.3"), ip("242.254.1.10"), ip("242.254.1.11"), ip("242.254.1.12")));
        assertThat(allocated(pool.allocate("ns1", 3))).containsExactly(ip("242.254.1.10"), ip("242.254.1.11"), ip("242.254.1.12"));
        assertThat(allocated(pool.allocate("ns2", 2))).containsExactly(ip("242.254.1.17"), ip("242.254.1.18"));
    }

    @Test
    void blockThatFitsOnlyAtTheTopIsFound() {
        GlobalIpPool pool = pool("10.1.0.0/29");
        pool.reserve("low", List.of(ip("10.1.0.1"), ip("10.1.0.3")));

        assertThat(allocated(pool.allocate("pair", 3))).containsExactly(ip("10.1.0.4"), ip("10.1.0.5"), ip("10.1.0.6"));
        assertThat(pool.freeCount()).isEqualTo(1);
    }

    @Test
    void zeroAllocatesNothing() {
        GlobalIpPool pool = pool("242.254.1.0/24");

        assertThat(allocated(pool.allocate("empty", 0))).isEmpty();
        assertThat(pool.freeCount()).isEqualTo(254);
    }

    @Test
    void negativeCountFailsNamingTheRequester() {
        GlobalIpPool pool = pool("242.254.1.0/24");

        AllocationResult.Failed failed = failed(pool.allocate("GlobalEgressIP ns1/odd", -2));
        assertThat(failed.requester()).isEqualTo("GlobalEgressIP ns1/odd");
        assertThat(failed.reason()).contains("-2");
        assertThat(pool.freeCount()).isEqualTo(254);
    }

    @Test
    void exhaustionNamesTheRequester() {
        GlobalIpPool pool = pool("242.254.1.0/29");
        allocated(pool.allocate("GlobalEgressIP ns1/big", 5));

        AllocationResult.Failed failed = failed(pool.allocate("GlobalEgressIP ns2/second", 2));

        assertThat(failed.requester()).isEqualTo("GlobalEgressIP ns2/second");
        assertThat(failed.describe()).startsWith("GlobalEgressIP ns2/second asked for 2 addresses")
                .contains("242.254.1.0/29").contains("only 1 free");
        assertThat(pool.freeCount()).isEqualTo(1);
    }

    @Test
    void fragmentationFailureSaysHowManyAreFree() {
        GlobalIpPool pool = pool("242.254.1.0/29");
        pool.reserve("odd", List.of(ip("242.254.1.2"), ip("242.254.1.4")));

        AllocationResult.Failed failed = failed(pool.allocate("GlobalEgressIP ns1/pair", 3));

        assertThat(failed.describe()).contains("3 contiguous").contains("4 free");
        assertThat(pool.freeCount()).isEqualTo(4);
    }

    @Test
    void reserveIsAllOrNothing() {
        GlobalIpPool pool = pool("242.254.1.0/24");
        pool.reserve("first", List.of(ip("242.254.1.20")));

        AllocationResult.Failed failed = failed(pool.reserve("second",
                List.of(ip("242.254.1.10"), ip("242.254.1.11"), ip("242.254.1.20"))));

        assertThat(failed.requester()).isEqualTo("second");
        assertThat(failed.reason()).contains("242.254.1.20").contains("first");
        assertThat(pool.isAllocated(ip("242.254.1.10"))).isFalse();
        assertThat(pool.isAllocated(ip("242.254.1.11"))).isFalse();
        assertThat(pool.ownerOf(ip("242.254.1.20"))).contains("first");
        assertThat(pool.freeCount()).isEqualTo(253);
    }

    @Test
    void reserveRefusesNetworkBroadcastOutsideAndRepeatedAddresses() {
        GlobalIpPool pool = pool("242.254.1.0/24");

        assertThat(failed(pool.reserve("r", List.of(ip("242.254.1.5"), ip("242.254.1.0")))).reason()).contains("network or broadcast");
        assertThat(failed(pool.reserve("r", List.of(ip("242.254.1.255")))).reason()).contains("network or broadcast");
        assertThat(failed(pool.reserve("r", List.of(ip("242.254.2.7")))).reason()).contains("outside");
        assertThat(failed(pool.reserve("r", List.of(ip("242.254.1.7"), ip("242.254.1.7")))).reason()).contains("twice");
        assertThat(pool.freeCount()).isEqualTo(254);
    }

    @Test
    void reservedAddressesBelongToTheRequesterInTheGivenOrder() {
        GlobalIpPool pool = pool("242.254.1.0/24");

        List<Ipv4Address> restored = List.of(ip("242.254.1.9"), ip("242.254.1.3"));
        assertThat(allocated(pool.reserve("ClusterGlobalEgressIP gw-2", restored))).isEqualTo(restored);
        assertThat(pool.ownerOf(ip("242.254.1.3"))).contains("ClusterGlobalEgressIP gw-2");
        assertThat(pool.freeCount()).isEqualTo(252);
    }

    @Test
    void releasedAddressesBecomeFreeAndLoseTheirOwner() {
        GlobalIpPool pool = pool("242.254.1.0/24");
        List<Ipv4Address> block = allocated(pool.allocate("gw-1", 4));

        assertThat(pool.release(block.subList(0, 2))).isEqualTo(2);

        assertThat(pool.isAllocated(block.get(0))).isFalse();
        assertThat(pool.ownerOf(block.get(0))).isEmpty();
        assertThat(pool.ownerOf(block.get(2))).contains("gw-1");
        assertThat(pool.freeCount()).isEqualTo(252);
    }

    @Test
    void releaseIgnoresFreeAndForeignAddresses() {
        GlobalIpPool pool = pool("242.254.1.0/24");
        allocated(pool.allocate("svc", 1));

        int released = pool.release(List.of(ip("242.254.1.254"), ip("242.254.1.254"), ip("242.254.1.7"), ip("10.0.0.1"), ip("242.254.1.255")));

        assertThat(released).isEqualTo(1);
        assertThat(pool.freeCount()).isEqualTo(254);
    }

    @Test
    void slashEightPoolServesItsTopAndItsBottom() {
        GlobalIpPool pool = pool("242.0.0.0/8");

        assertThat(pool.size()).isEqualTo(16_777_214);
        assertThat(allocated(pool.allocate("svc", 1))).containsExactly(ip("242.255.255.254"));
        pool.reserve("restored", List.of(ip("242.255.255.253")));
        assertThat(allocated(pool.allocate("svc-2", 1))).containsExactly(ip("242.255.255.252"));
        assertThat(allocated(pool.allocate("gw", 20)).getFirst()).isEqualTo(ip("242.0.0.1"));
        assertThat(pool.freeCount()).isEqualTo(16_777_214 - 23);
    }

    @Test
    void poolsLargerThanSlashEightAreRefused() {
        assertThatThrownBy(() -> pool("240.0.0.0/7")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/8");
    }

    @Test
    void slashThirtyOneHasNoUsableAddress() {
        GlobalIpPool pool = pool("242.254.1.0/31");

        assertThat(pool.size()).isZero();
        assertThat(failed(pool.allocate("svc", 1)).requester()).isEqualTo("svc");
    }
}
