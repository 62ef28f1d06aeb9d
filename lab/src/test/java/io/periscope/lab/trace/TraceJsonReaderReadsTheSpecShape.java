package io.periscope.lab.trace;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TraceJsonReaderReadsTheSpecShape {

    /** Spec section 3's example, a flow with one path of two hops. */
    static final String DOCUMENT = """
            {"flows": [{"name": "client-to-nginx", "from": "cluster1/default/client",
              "to": "nginx.default.svc.clusterset.local:80", "resolved": "242.254.2.254:80",
              "paths": [{"disposition": "delivered", "choices": ["cluster1/worker-1: via 240.18.0.8"],
                "forward": {"hops": [
                  {"node": "cluster1/worker-1", "in": "p-client", "out": "vx-submariner",
                   "arrive": {"src": "10.0.128.4", "dst": "242.254.2.254", "sport": 40000, "dport": 80, "proto": "tcp"},
                   "steps": [{"kind": "encap", "device": "vx-submariner", "vni": 100, "port": 4800, "outerSrc": "172.18.0.10",
                              "outerDst": "172.18.0.8", "underlay": "eth0"}],
                   "depart": {"src": "10.0.128.4", "dst": "242.254.2.254", "sport": 40000, "dport": 80, "proto": "tcp"}},
                  {"node": "cluster1/gw-2", "in": "vx-submariner", "out": "vxlan-tunnel",
                   "arrive": {"src": "10.0.128.4", "dst": "242.254.2.254", "sport": 40000, "dport": 80, "proto": "tcp"},
                   "steps": [{"kind": "snat", "table": "nat", "chain": "SM-GN-EGRESS-CLUSTER", "rule": "-j SNAT",
                              "packet": {"src": "242.254.1.9", "dst": "242.254.2.254", "sport": 40000, "dport": 80, "proto": "tcp"}}],
                   "depart": {"src": "242.254.1.9", "dst": "242.254.2.254", "sport": 40000, "dport": 80, "proto": "tcp"}}]},
                "reply": {"hops": [{"node": "cluster2/default/nginx", "arrive": {"src": "10.0.128.5", "dst": "10.0.0.1", "proto": "icmp"}}]}
              }]}]}""";

    @Test
    void readsFlowsPathsHopsPacketsAndTheEncapStep() {
        List<TraceFlow> flows = TraceJsonReader.document(DOCUMENT);

        assertThat(flows).hasSize(1);
        TraceFlow flow = flows.getFirst();
        assertThat(flow.resolved()).isEqualTo("242.254.2.254:80");
        TracePath path = flow.paths().getFirst();
        assertThat(path.disposition()).isEqualTo("delivered");
        assertThat(path.choices()).containsExactly("cluster1/worker-1: via 240.18.0.8");
        TraceHop worker = path.forward().getFirst();
        assertThat(worker.position()).isEqualTo("cluster1/worker-1 in p-client out vx-submariner");
        assertThat(worker.encap()).contains(new TraceEncap("vx-submariner", Ipv4Address.parse("172.18.0.10"), Ipv4Address.parse("172.18.0.8"),
                100, 4800, "eth0"));
        assertThat(path.forward().get(1).encap()).isEmpty();
        assertThat(path.forward().get(1).depart()).contains(TracePacket.of(Ipv4Address.parse("242.254.1.9"), Ipv4Address.parse("242.254.2.254"),
                40000, 80, Protocol.TCP));
    }

    @Test
    void aHopWithoutOutOrDepartEndedThereAndIcmpHasNoPorts() {
        TraceHop last = TraceJsonReader.document(DOCUMENT).getFirst().paths().getFirst().reply().getFirst();

        assertThat(last.in()).isEmpty();
        assertThat(last.out()).isEmpty();
        assertThat(last.depart()).isEqualTo(Optional.empty());
        assertThat(last.arrive().sport()).isZero();
        assertThat(last.arrive().endpoints()).isEqualTo("SRC: 10.0.128.5 DST: 10.0.0.1");
    }

    @Test
    void anEncapsulationIsTheOuterPacketAsTheWireSeesItAfterTheNatDeviceTranslatedItsSource() {
        // A gateway behind NAT: the environment's SNAT after the encapsulation, then conntrack's undnat on a reply.
        TraceHop sent = TraceJsonReader.hop(TraceJsonReader.tree("""
                {"node": "east/east-gw", "in": "eth0", "out": "wan0",
                 "arrive": {"src": "10.1.1.10", "dst": "10.2.1.10", "sport": 40000, "dport": 5432, "proto": "tcp"},
                 "steps": [{"kind": "snat", "table": "nat", "chain": "SUBMARINER-POSTROUTING", "rule": "-j SNAT",
                            "packet": {"src": "10.1.0.1", "dst": "10.2.1.10", "sport": 40000, "dport": 5432, "proto": "tcp"}},
                           {"kind": "encap", "encapsulation": "esp-in-udp", "device": "c-0-1", "port": 4500, "outerSrc": "172.20.1.2",
                            "outerDst": "198.51.100.2", "underlay": "wan0", "encrypted": true},
                           {"kind": "snat", "table": "nat", "chain": "NAT-DEVICE-OUT", "rule": "-s 172.20.1.2/32 -j SNAT --to-source 198.51.100.1",
                            "packet": {"src": "198.51.100.1", "dst": "198.51.100.2", "sport": 4500, "dport": 4500, "proto": "udp"}}]}"""));
        assertThat(sent.encap()).hasValueSatisfying(e -> {
            assertThat(e.outerSrc()).isEqualTo(Ipv4Address.parse("198.51.100.1"));
            assertThat(e.outerDst()).isEqualTo(Ipv4Address.parse("198.51.100.2"));
            assertThat(e.encapsulation()).isEqualTo("esp-in-udp");
        });

        TraceHop replied = TraceJsonReader.hop(TraceJsonReader.tree("""
                {"node": "west/west-gw", "in": "eth0", "out": "wan0",
                 "arrive": {"src": "10.2.1.10", "dst": "10.1.1.10", "sport": 5432, "dport": 40000, "proto": "tcp"},
                 "steps": [{"kind": "encap", "encapsulation": "esp-in-udp", "device": "c-1-1", "port": 4500, "outerSrc": "172.20.2.2",
                            "outerDst": "198.51.100.1", "underlay": "wan0", "encrypted": true},
                           {"kind": "undnat", "conntrack": "reply",
                            "packet": {"src": "198.51.100.2", "dst": "198.51.100.1", "sport": 4500, "dport": 4500, "proto": "udp"}}]}"""));
        assertThat(replied.encap()).hasValueSatisfying(e -> assertThat(e.outerSrc()).isEqualTo(Ipv4Address.parse("198.51.100.2")));
    }
}
