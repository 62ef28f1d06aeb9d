package io.periscope.model.load;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.selector.LabelSelectorRequirement;
import io.periscope.model.selector.SelectorOperator;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;

import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.MultipathHashPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Each field lands in its record, and every optional field takes its documented default. */
class TopologyLoaderMapsFieldsToRecords {

    private static final String MINIMAL = """
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                  - {name: worker, ip: 172.20.1.3, cniIP: 10.1.1.1}
                pods:
                  - {name: client, node: worker, ip: 10.1.1.10}
            """;

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    @Test
    void leftOutFieldsTakeTheirDefaults() throws TopologyException {
        ClusterSet set = TopologyLoader.parse(MINIMAL, "topologies/two-nodes.yaml");

        assertThat(set.name()).isEqualTo("two-nodes");
        assertThat(set.globalnet()).isEqualTo(GlobalnetConfig.DISABLED);
        assertThat(set.defaultCableDriver()).isEqualTo(CableDriver.LIBRESWAN);
        assertThat(set.connectivityPolicies()).isEmpty();
        assertThat(set.connectionPolicies()).isEmpty();
        assertThat(set.flows()).isEmpty();
        Cluster east = set.requireCluster("east");
        assertThat(east.labels()).isEmpty();
        assertThat(east.globalCidr()).isEmpty();
        assertThat(east.cni()).isEqualTo(Cni.KUBE_PROXY);
        assertThat(east.multiActiveGateways()).isFalse();
        assertThat(east.clusterEgressIPs()).isEqualTo(Cluster.DEFAULT_CLUSTER_EGRESS_IPS);
        assertThat(east.loadBalancing()).isEqualTo(GatewayLoadBalancing.MULTIPATH_ROUTES);
        assertThat(east.requireNode("worker").gateway()).isFalse();
        assertThat(east.requireNode("gw").publicIp()).isEmpty();
        Pod client = east.pods().getFirst();
        assertThat(client.namespace()).isEqualTo("default");
        assertThat(client.labels()).isEmpty();
        assertThat(client.hostNetwork()).isFalse();
    }

    @Test
    void globalnetWithOnlyEnabledTakesTheBrokerDefaults() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("globalnet: {enabled: true}\n" + MINIMAL, "t.yaml");

        assertThat(set.globalnet()).isEqualTo(new GlobalnetConfig(true, Ipv4Prefix.parse("242.0.0.0/8"), 65536, GlobalnetMode.V2));
    }

    @Test
    void globalnetModeLegacySelectsTheFirstGlobalnetDesign() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("globalnet: {enabled: true, mode: legacy}\n" + MINIMAL, "t.yaml");

        assertThat(set.globalnet().mode()).isEqualTo(GlobalnetMode.LEGACY);
    }

    @Test
    void clusterFieldsNodesPodsAndServicesAreReadWithTheirValues() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("""
                name: lab
                defaults: {cableDriver: wireguard}
                clusters:
                  - name: east
                    labels: {location: edge, tier: "1"}
                    podCIDRs: [10.1.0.0/16, 10.11.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    cni: ovn-kubernetes
                    multiActiveGateways: true
                    clusterEgressIPs: 4
                    gatewayLoadBalancing: resilient-nexthop-groups
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, publicIP: 198.51.100.7}
                      - {name: worker, ip: 172.20.1.3, cniIP: 10.1.1.1, tcpClampMss: 1200}
                    pods:
                      - {name: client, namespace: apps, node: worker, ip: 10.11.0.5, labels: {app: client}}
                      - {name: agent, namespace: kube-system, node: worker, hostNetwork: true}
                    services:
                      - name: dns
                        namespace: kube-system
                        clusterIP: 10.96.0.10
                        selector: {k8s-app: dns}
                        ports: [{port: 53, protocol: udp}, {port: 53, protocol: TCP, targetPort: 5353}]
                      - {name: db, clusterIP: None, selector: {app: db}, ports: [{port: 5432}]}
                    exports: [kube-system/dns]
                """, "lab.yaml");

        assertThat(set.name()).isEqualTo("lab");
        assertThat(set.defaultCableDriver()).isEqualTo(CableDriver.WIREGUARD);
        Cluster east = set.requireCluster("east");
        assertThat(east.labels()).isEqualTo(Map.of("location", "edge", "tier", "1"));
        assertThat(east.podCidrs()).containsExactly(Ipv4Prefix.parse("10.1.0.0/16"), Ipv4Prefix.parse("10.11.0.0/16"));
        assertThat(east.cni()).isEqualTo(Cni.OVN_KUBERNETES);
        assertThat(east.multiActiveGateways()).isTrue();
        assertThat(east.clusterEgressIPs()).isEqualTo(4);
        assertThat(east.loadBalancing()).isEqualTo(GatewayLoadBalancing.RESILIENT_NEXTHOP_GROUPS);
        assertThat(east.requireNode("gw")).isEqualTo(new Node("gw", ip("172.20.1.2"), ip("10.1.0.1"), true, Optional.of(ip("198.51.100.7"))));
        assertThat(east.requireNode("gw").tcpClampMss()).isEmpty();
        assertThat(east.requireNode("worker").tcpClampMss()).hasValue(1200);
        assertThat(east.pod("apps", "client")).contains(new Pod("client", "apps", "worker", ip("10.11.0.5"), Map.of("app", "client"), false));
        assertThat(east.pod("kube-system", "agent")).hasValueSatisfying(agent -> {
            assertThat(agent.hostNetwork()).isTrue();
            assertThat(agent.ip()).isEqualTo(ip("172.20.1.3"));
        });
        Service dns = east.service("kube-system", "dns").orElseThrow();
        assertThat(dns.selector()).isEqualTo(LabelSelector.ofLabels(Map.of("k8s-app", "dns")));
        assertThat(dns.ports()).containsExactly(new ServicePort(53, 53, Protocol.UDP), new ServicePort(53, 5353, Protocol.TCP));
        assertThat(east.service("default", "db")).hasValueSatisfying(db -> assertThat(db.headless()).isTrue());
        assertThat(east.isExported(dns)).isTrue();
    }

    @Test
    void linkPropertiesAndTheHashPolicyAreReadInTcUnits() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    multipathHashPolicy: l3
                    nodes:
                      - name: gw
                        ip: 172.20.1.2
                        cniIP: 10.1.0.1
                        gateway: true
                        uplink: {rate: 1.5mbit, delay: 250us, jitter: 100us, loss: 0.25%, queue: 50}
                      - {name: worker, ip: 172.20.1.3, cniIP: 10.1.1.1}
                  - name: west
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [10.97.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true, uplink: {rate: 1gbit}}
                cables:
                  - between: [west, east]
                    delay: 2s
                    loss: 100%
                """, "links.yaml");

        Cluster east = set.requireCluster("east");
        assertThat(east.environment().multipathHash()).isEqualTo(MultipathHashPolicy.L3);
        assertThat(set.requireCluster("west").environment().multipathHash()).isEqualTo(MultipathHashPolicy.L4);
        LinkProperties uplink = east.requireNode("gw").link().uplink();
        assertThat(uplink.rateBitsPerSecond()).hasValue(1_500_000);
        assertThat(uplink.delay()).contains(Duration.ofNanos(250_000));
        assertThat(uplink.jitter()).contains(Duration.ofNanos(100_000));
        assertThat(uplink.lossPercent()).hasValue(0.25);
        assertThat(uplink.queuePackets()).hasValue(50);
        assertThat(uplink.describe()).isEqualTo("rate 1.5mbit, delay 250us ± 100us, loss 0.25%, queue 50");
        assertThat(east.requireNode("worker").link().uplink()).isEqualTo(LinkProperties.NONE);
        assertThat(set.requireCluster("west").requireNode("gw").link().uplink().describe()).isEqualTo("rate 1gbit");
        assertThat(set.cables()).containsExactly(new CableLink("west", "east", new LinkProperties(OptionalLong.empty(),
                Optional.of(Duration.ofSeconds(2)), Optional.empty(), OptionalDouble.of(100), OptionalInt.empty())));
        assertThat(set.cableBetween("east", "west").describe()).isEqualTo("delay 2s, loss 100%");
    }

    @Test
    void globalEgressIPsTakeNamespaceDefaultOneIpAndFullLabelSelectors() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("globalnet: {enabled: true}\n" + MINIMAL + """
                    globalEgressIPs:
                      - {name: everyone}
                      - name: picky
                        namespace: ns1
                        numberOfIPs: 0
                        podSelector:
                          matchLabels: {app: db}
                          matchExpressions:
                            - {key: tier, operator: In, values: [gold, silver]}
                            - {key: canary, operator: DoesNotExist}
                """, "t.yaml");

        List<GlobalEgressIP> egress = set.requireCluster("east").globalEgressIPs();
        assertThat(egress.get(0)).isEqualTo(new GlobalEgressIP("everyone", "default", Optional.empty(), 1));
        assertThat(egress.get(1).numberOfIPs()).isZero();
        assertThat(egress.get(1).podSelector()).contains(new LabelSelector(Map.of("app", "db"), List.of(
                new LabelSelectorRequirement("tier", SelectorOperator.IN, List.of("gold", "silver")),
                new LabelSelectorRequirement("canary", SelectorOperator.DOES_NOT_EXIST, List.of()))));
    }

    @Test
    void policySelectorsAcceptTheShortLabelFormTheFullFormAndNothingForEveryCluster() throws TopologyException {
        ClusterSet set = TopologyLoader.parse(MINIMAL + """
                connectivityPolicies:
                  - name: short
                    leftClusterSelector: {database-server: true}
                    rightClusterSelector:
                  - name: full
                    leftClusterSelector: {matchLabels: {location: on-premise}}
                    rightClusterSelector: {matchExpressions: [{key: location, operator: NotIn, values: [cloud]}]}
                connectionPolicies:
                  - leftClusterSelector: {location: on-premise}
                    rightClusterSelector: {location: on-premise}
                    cableDriver: {name: vxlan}
                  - cableDriver: {name: wireguard, options: {udp-port: 51871}}
                  - cableDriver: libreswan
                """, "t.yaml");

        assertThat(set.connectivityPolicies()).containsExactly(
                new ClusterConnectivityPolicy("short", LabelSelector.ofLabels(Map.of("database-server", "true")), LabelSelector.EVERYTHING),
                new ClusterConnectivityPolicy("full", LabelSelector.ofLabels(Map.of("location", "on-premise")),
                        new LabelSelector(Map.of(), List.of(new LabelSelectorRequirement("location", SelectorOperator.NOT_IN, List.of("cloud"))))));
        LabelSelector onPremise = LabelSelector.ofLabels(Map.of("location", "on-premise"));
        assertThat(set.connectionPolicies()).containsExactly(
                new ClusterConnectionPolicy(onPremise, onPremise, CableDriverSpec.of(CableDriver.VXLAN)),
                new ClusterConnectionPolicy(LabelSelector.EVERYTHING, LabelSelector.EVERYTHING,
                        new CableDriverSpec(CableDriver.WIREGUARD, Map.of("udp-port", "51871"))),
                new ClusterConnectionPolicy(LabelSelector.EVERYTHING, LabelSelector.EVERYTHING, CableDriverSpec.of(CableDriver.LIBRESWAN)));
    }

    @Test
    void flowsReadEverySourceAndTargetFormWithTcpAsTheDefaultProtocol() throws TopologyException {
        ClusterSet set = TopologyLoader.parse(MINIMAL + """
                    services:
                      - {name: web, clusterIP: 10.96.0.80, selector: {app: web}, ports: [{port: 80}]}
                    exports: [default/web]
                flows:
                  - {name: by-name, from: east/default/client, to: web.default.svc.clusterset.local:80}
                  - {name: to-pod, from: east/gw, to: east/default/client:8080, protocol: UDP, expect: dropped}
                  - {name: ping, from: east/worker, to: 10.1.1.10, protocol: icmp, expect: no-route}
                """, "t.yaml");

        assertThat(set.flows()).containsExactly(
                new Flow("by-name", new FlowSource.PodSource("east", "default", "client"),
                        new FlowTarget.DnsTarget("web.default.svc.clusterset.local", 80), Protocol.TCP, Optional.empty()),
                new Flow("to-pod", new FlowSource.NodeSource("east", "gw"),
                        new FlowTarget.PodTarget("east", "default", "client", 8080), Protocol.UDP,
                        Optional.of(io.periscope.model.topology.Disposition.DROPPED)),
                new Flow("ping", new FlowSource.NodeSource("east", "worker"),
                        new FlowTarget.AddressTarget(ip("10.1.1.10"), 0), Protocol.ICMP,
                        Optional.of(io.periscope.model.topology.Disposition.NO_ROUTE)));
    }

    @Test
    void mergeKeysCopyFieldsFromAnAnchorAndWrittenFieldsWin() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - &gateway {name: gw-1, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                      - {<<: *gateway, name: gw-2, ip: 172.20.1.4, cniIP: 10.1.2.1}
                """, "t.yaml");

        assertThat(set.requireCluster("east").requireNode("gw-2"))
                .isEqualTo(new Node("gw-2", ip("172.20.1.4"), ip("10.1.2.1"), true, Optional.empty()));
    }

    @Test
    void sameCidrsInTwoClustersAreAcceptedWithGlobalnet() throws TopologyException {
        String cluster = """
                  - name: %s
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - {name: gw, ip: %s, cniIP: 10.1.0.1, gateway: true}
                """;
        ClusterSet set = TopologyLoader.parse("globalnet: {enabled: true}\nclusters:\n"
                + cluster.formatted("east", "172.20.1.2") + cluster.formatted("west", "172.20.2.2"), "t.yaml");

        assertThat(set.clusters()).extracting(Cluster::name).containsExactly("east", "west");
    }

    @Test
    void multipleActiveGatewaysAreAllowedWithOvnKubernetes() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    cni: ovn-kubernetes
                    multiActiveGateways: true
                    nodes:
                      - {name: gw-1, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                      - {name: gw-2, ip: 172.20.1.4, cniIP: 10.1.2.1, gateway: true}
                """, "t.yaml");

        Cluster east = set.requireCluster("east");
        assertThat(east.cni()).isEqualTo(Cni.OVN_KUBERNETES);
        assertThat(east.activeGateways()).extracting(Node::name).containsExactly("gw-1", "gw-2");
    }

    @Test
    void podsWithTheSameNameInDifferentNamespacesAreDistinct() throws TopologyException {
        ClusterSet set = TopologyLoader.parse(MINIMAL + "      - {name: client, namespace: other, node: worker, ip: 10.1.1.11}\n", "t.yaml");

        assertThat(set.requireCluster("east").pods()).extracting(Pod::qualifiedName).containsExactly("default/client", "other/client");
    }
}
