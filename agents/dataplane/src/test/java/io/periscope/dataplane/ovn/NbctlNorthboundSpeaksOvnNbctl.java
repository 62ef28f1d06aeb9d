package io.periscope.dataplane.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading captured {@code ovn-nbctl --format=json list} output (OVN 23.03) and writing one transaction. */
class NbctlNorthboundSpeaksOvnNbctl {

    // Captured from ovn-nbctl 23.03.1, one line per table in NbctlListParser.TABLES' order.
    private static final String LISTING = """
            {"data":[[["uuid","e3b088e5-4e2a-4d09-b896-cea1cc90a9e5"],["map",[]],["set",[]],["map",[]],"Service_default/nginx_TCP_cluster",["map",[]],"tcp",["set",[]],["map",[["10.96.0.50:8080","10.244.1.10:8080"]]]]],"headings":["_uuid","external_ids","health_check","ip_port_mappings","name","options","protocol","selection_fields","vips"]}
            {"data":[[["uuid","25a89bec-9b99-46ab-874a-18271422e33c"],["uuid","e3b088e5-4e2a-4d09-b896-cea1cc90a9e5"],"clusterLBGroup"]],"headings":["_uuid","load_balancer","name"]}
            {"data":[],"headings":["_uuid","name","ports","load_balancer_group"]}
            {"data":[],"headings":["_uuid","name","type","options","addresses"]}
            {"data":[[["uuid","dbb49da4-bebe-4e01-a11a-86106becddec"],"submariner_router",["map",[["chassis","west-gw"]]],["uuid","25a89bec-9b99-46ab-874a-18271422e33c"],["set",[]],["set",[]],["set",[["uuid","14b35158-bbc2-4f05-a80a-f83d8dd01f02"]]]],[["uuid","1e3afdb3-c5dd-48fc-8269-03f9a6815451"],"ovn_cluster_router",["map",[]],["set",[]],["uuid","7e1ebf6a-254c-40f9-8ecf-47e711a55d2b"],["uuid","8fc33fad-bb05-45ec-9520-9ffdb08e05ad"],["set",[]]]],"headings":["_uuid","name","options","load_balancer_group","ports","policies","static_routes"]}
            {"data":[[["uuid","7e1ebf6a-254c-40f9-8ecf-47e711a55d2b"],["map",[]],"0a:58:a9:fe:fe:02","ovn_cluster_subm_lrp","169.254.254.2/29"]],"headings":["_uuid","external_ids","mac","name","networks"]}
            {"data":[[["uuid","8fc33fad-bb05-45ec-9520-9ffdb08e05ad"],"reroute",["map",[]],"ip4.dst == 242.0.0.0/16",["set",[]],"169.254.254.1",["map",[]],20000]],"headings":["_uuid","action","external_ids","match","nexthop","nexthops","options","priority"]}
            {"data":[[["uuid","14b35158-bbc2-4f05-a80a-f83d8dd01f02"],["set",[]],["map",[]],"9.9.9.9","169.254.254.10",["map",[]],"submariner_up_lrp",["set",[]],""]],"headings":["_uuid","bfd","external_ids","ip_prefix","nexthop","options","output_port","policy","route_table"]}
            """;

    @Test
    void aListingBecomesRowsWithReferencesByNameAndHostRoutesWithTheirLength() {
        RecordingCommandRunner runner = new RecordingCommandRunner().answer(List.of("ovn-nbctl"), LISTING);
        NorthboundState state = new NbctlNorthbound(runner, "unix:/run/nb.sock").read();

        assertThat(runner.commands().getFirst().argv()).startsWith("ovn-nbctl", "--db=unix:/run/nb.sock", "--format=json", "list", "Load_Balancer", "--");
        assertThat(state.plain()).containsExactly(
                new NbRow.LoadBalancerRow("Service_default/nginx_TCP_cluster", "tcp", new TreeMap<>(java.util.Map.of("10.96.0.50:8080", "10.244.1.10:8080"))),
                new NbRow.LoadBalancerGroupRow("clusterLBGroup", new TreeSet<>(List.of("Service_default/nginx_TCP_cluster"))),
                new NbRow.RouterRow("submariner_router", Optional.of("west-gw"), new TreeSet<>(List.of("clusterLBGroup"))),
                new NbRow.RouteRow("submariner_router", "9.9.9.9/32", "169.254.254.10", Optional.of("submariner_up_lrp"), "dst-ip", false),
                new NbRow.RouterRow("ovn_cluster_router", Optional.empty(), new TreeSet<>()),
                new NbRow.RouterPortRow("ovn_cluster_router", "ovn_cluster_subm_lrp", "0a:58:a9:fe:fe:02", List.of("169.254.254.2/29")),
                new NbRow.PolicyRow("ovn_cluster_router", 20000, "ip4.dst == 242.0.0.0/16", "reroute", List.of("169.254.254.1")));
    }

    @Test
    void oneTransactionRefersToANewGroupByItsIdAndToAnExistingOneByUuid() {
        RecordingCommandRunner runner = new RecordingCommandRunner().answer(List.of("ovn-nbctl", "--db=unix:/nb", "--format=json"), LISTING);
        NbctlNorthbound northbound = new NbctlNorthbound(runner, "unix:/nb");
        NorthboundState before = northbound.read();
        northbound.apply(List.of(
                new NbChange.Create(new NbRow.SwitchRow("n1", new TreeSet<>(List.of("clusterLBGroup", "other")))),
                new NbChange.Create(new NbRow.LoadBalancerGroupRow("other", new TreeSet<>()))), before);

        Command transaction = runner.commands().getLast();
        assertThat(transaction.argv()).containsExactly("ovn-nbctl", "--db=unix:/nb",
                "--", "--id=@row0", "create", "load_balancer_group", "name=\"other\"", "load_balancer=[]",
                "--", "create", "logical_switch", "name=\"n1\"", "load_balancer_group=[25a89bec-9b99-46ab-874a-18271422e33c,@row0]");
    }
}
