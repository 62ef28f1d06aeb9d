package io.periscope.lab.machine;

import io.periscope.lab.Examples;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AddressSpaceCheckRefusesTheMachinesOwnAddresses {

    /** What {@code ip -j -4 addr} prints on a machine with loopback and one interface. */
    static final String ADDRESSES = """
            [{"ifindex":1,"ifname":"lo","addr_info":[{"family":"inet","local":"127.0.0.1","prefixlen":8}]},
             {"ifindex":4,"ifname":"eth0","addr_info":[{"family":"inet","local":"192.0.2.2","prefixlen":24}]}]""";

    static String routes(String extra) {
        return "[{\"dst\":\"default\",\"gateway\":\"192.0.2.1\",\"dev\":\"eth0\"},"
                + "{\"dst\":\"192.0.2.0/24\",\"dev\":\"eth0\",\"protocol\":\"kernel\"}" + extra + "]";
    }

    @Test
    void readsInterfaceNetworksAndRouteDestinationsButNotTheDefaultRoute() {
        MachineNetwork machine = MachineNetwork.parse(ADDRESSES, routes(""));

        assertThat(machine.prefixes()).extracting(MachinePrefix::prefix)
                .containsExactly(Ipv4Prefix.parse("127.0.0.0/8"), Ipv4Prefix.parse("192.0.2.0/24"), Ipv4Prefix.parse("192.0.2.0/24"));
        assertThat(machine.prefixes().get(1).origin()).isEqualTo("address 192.0.2.2/24 on eth0");
    }

    @Test
    void theShippedExamplesFitBesideThisKindOfMachine() {
        MachineNetwork machine = MachineNetwork.parse(ADDRESSES, routes(""));

        assertThat(AddressSpaceCheck.conflicts(Examples.plan(Examples.MAG_GLOBALNET), machine)).isEmpty();
        assertThat(AddressSpaceCheck.conflicts(Examples.plan(Examples.GLOBALNET_EGRESS), machine)).isEmpty();
    }

    @Test
    void aRouteOfTheMachineIntoTheTopologysRangesIsNamedWithTheFieldAndTheInterface() {
        MachineNetwork machine = MachineNetwork.parse(ADDRESSES, routes(",{\"dst\":\"172.18.0.0/16\",\"gateway\":\"192.0.2.1\",\"dev\":\"eth0\"}"));
        ClusterSetPlan plan = Examples.plan(Examples.MAG_GLOBALNET);

        List<AddressConflict> conflicts = AddressSpaceCheck.conflicts(plan, machine);

        assertThat(conflicts).isNotEmpty();
        assertThat(conflicts.getFirst().describe())
                .isEqualTo("clusters[0] (cluster1).nodes[0] (gw-1).ip = 172.18.0.6/32 overlaps the machine's route 172.18.0.0/16 via 192.0.2.1 dev eth0");
    }

    @Test
    void anAddressOnAnInterfaceOfTheMachineIsAConflictToo() {
        String addresses = ADDRESSES.replace("192.0.2.2\",\"prefixlen\":24", "10.0.128.9\",\"prefixlen\":32");
        MachineNetwork machine = MachineNetwork.parse(addresses, "[]");

        assertThat(AddressSpaceCheck.conflicts(Examples.plan(Examples.MAG_GLOBALNET), machine))
                .extracting(AddressConflict::describe)
                .contains("clusters[0] (cluster1).podCIDRs[0] = 10.0.0.0/16 overlaps the machine's address 10.0.128.9/32 on eth0");
    }
}
