package io.periscope.features.backend;

import io.periscope.features.kubernetes.KubernetesControlPlane;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;

import java.util.List;
import java.util.Optional;

/**
 * A cluster set running on a backend: what the scenarios observe. Traces use the simulator's trace
 * records as the common vocabulary (spec section 3): the lab reports the hops it observed in that
 * shape, including which rule translated a packet, so the same scenario checks both.
 */
public interface Deployment {

    ClusterSet clusterSet();

    /**
     * Every path the flow takes (the simulator follows every alternative; the lab every path its
     * probes used), forward and reply.
     */
    FlowTrace trace(Flow flow) throws FlowResolutionException;

    /**
     * Whether the packets of {@code followed} (paths this deployment traced) are hidden where they
     * cross from one cluster to another: in the lab shown on the wire, on the simulator its own account.
     */
    CableSecrecy secrecy(List<PathTrace> followed);

    /** The answer Lighthouse gives {@code from} for a {@code clusterset.local} name. */
    Ipv4Address resolve(FlowSource from, String dnsName) throws FlowResolutionException;

    /**
     * Asks the DNS server of {@code from}'s cluster for {@code name} ({@code A} or {@code SRV}), as a
     * program in that pod would: the simulator's backend starts a real server for the cluster on
     * 127.0.0.1; the lab asks the server running in the cluster, from inside the pod's namespace.
     *
     * @return the records' data in answer order ({@code 242.1.255.254}, {@code 0 50 80 target.}); empty
     *         when the name does not exist (NXDOMAIN)
     */
    Optional<List<String>> askDns(FlowSource from, String name, String type);

    /** What is programmed in one host's namespace, all layers (CNI, kube-proxy, Submariner). */
    DataplanePlan programmed(HostId host);

    /**
     * Puts someone else's rule ({@code rule} as {@code iptables-save} prints it after {@code -A chain})
     * at the end of {@code chain} of the host's {@code table}: in the lab with {@code iptables} in the
     * host's namespace; the simulator keeps no kernel, so there it only names what {@link #keepsForeignRule} asks.
     */
    void addForeignRule(HostId host, Table table, String chain, String rule);

    /**
     * Whether someone else's rule, added while the host was programmed as {@code before}, is still in
     * the host's table now that this deployment runs: in the lab read from the kernel; on the simulator
     * as the agents' own reconcile from {@code before} plus the rule to this plan would leave it.
     */
    boolean keepsForeignRule(HostId host, DataplanePlan before, Table table, String chain, String rule);

    /** The host's plain interfaces with their addresses (VXLAN devices are in {@link #programmed}). */
    List<Interface> interfaces(HostId host);

    /** Every Globalnet object's addresses and status condition, per cluster. */
    GlobalnetAllocations allocations();

    /** The Endpoints the active gateways publish through the broker. */
    List<Endpoint> endpoints();

    /**
     * Called by a step before it reads allocations' statuses, status messages or free counts, so a
     * backend that has them only from the model records so: no kernel holds a status or counts what
     * is free, while addresses show in the rules that use them.
     */
    default void readsAllocationStatuses() {
    }

    /**
     * The Kubernetes control plane whose agents run this deployment, when they do (the
     * kubernetes-on-lab backend): the scenarios' API steps then ask it, not a plane of their own
     * beside the backend. Empty on the simulator and the lab, whose agents read no API.
     */
    default Optional<KubernetesControlPlane> controlPlane() {
        return Optional.empty();
    }

    /** The OVN logical network of an OVN-Kubernetes cluster (its northbound database); empty for other clusters. */
    Optional<OvnTopology> ovnTopology(String cluster);

    /**
     * The OVS bridges of an OVN-Kubernetes node mapped to a localnet network, with their internal
     * ports and addresses: in the lab read from the node's Open vSwitch database and kernel; on the
     * simulator the plan's.
     */
    List<io.periscope.plan.ovn.OvsBridge> ovsBridges(HostId node);

    /** Which cluster pairs have a tunnel, and with which cable driver the policies chose. */
    List<ClusterGraph.Connection> connections();

    /**
     * {@code streams} UDP streams of {@code udp} and {@code tcp} connections of {@code tcpFlow}, each
     * from a source port of its own, while the gateway {@code node} fails (its packets silently
     * dropped, so that its peers' health checks withdraw it) and comes back: in the lab for real,
     * with the running agents doing the withdrawal; on the simulator as predicted per flow.
     */
    GatewayFailover failover(Flow udp, int streams, Flow tcpFlow, int tcp, String node);

    /**
     * {@code count} echo requests of {@code flow} (an ICMP flow), 10 ms apart: in the lab from the
     * source's namespace for real; on the simulator the round trip and loss its links add up to.
     */
    RoundTrips pings(Flow flow, int count);

    /**
     * {@code connections} TCP connections of {@code flow} side by side for {@code seconds}: in the lab
     * with iperf3 ({@code lab bench}); on the simulator the rate its shaped links allow and the gateway
     * its kernel hash picks for each of as many evenly spread source ports.
     */
    Throughput connections(Flow flow, int connections, int seconds);

    /**
     * {@code count} echo requests of {@code size} bytes of {@code flow}, all sent at once: how many
     * were answered. In the lab for real ({@code ping -l}); on the simulator what the first
     * rate-limited link's queue lets through (the one frame it is sending and the queue; behind it
     * the burst is paced, so later links keep up).
     */
    int burst(Flow flow, int count, int size);
}
