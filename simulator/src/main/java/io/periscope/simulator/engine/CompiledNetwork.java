package io.periscope.simulator.engine;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.simulator.ovn.LogicalRouterPipeline;
import io.periscope.simulator.link.IpsecPolicies;
import io.periscope.simulator.link.VxlanFabric;
import io.periscope.simulator.link.WireGuardFabric;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.netfilter.NetfilterFootprint;
import io.periscope.simulator.netfilter.Ruleset;
import io.periscope.simulator.netfilter.SharedCompilation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A whole cluster set plan compiled for tracing: every host, the OVN logical routers, the wiring
 * between them, the VXLAN, WireGuard and IPsec cables.
 *
 * <p>The wiring and the cables are built at once, from every host's plan. Each host's own tables
 * (routing, netfilter) are compiled either at once too, or, {@linkplain #compilingOnFirstUse lazily},
 * when a packet first reaches the host: a trace of one flow through 240 hosts visits a dozen, and a
 * server that rebuilds its simulator on every save would otherwise compile all 240 each time.
 */
public final class CompiledNetwork {

    // A host compiled only once a packet reaches it; compiling reads nothing but its own plan and the
    // wiring and cables built in the constructor, so the order hosts are compiled in changes nothing.
    // Written once by compare-and-set, so that every thread tracing sees a completely built host.
    private final AtomicReferenceArray<CompiledHost> hosts;
    private final List<HostPlan> plans;
    private final List<DataplanePlan> effective;
    private final Map<HostId, LogicalRouterPipeline> routers;
    final Wiring wiring;
    final VxlanFabric vxlan;
    final WireGuardFabric wireGuard;
    final IpsecPolicies ipsec;
    private final Map<HostId, Integer> index = new HashMap<>();

    /**
     * @throws IllegalArgumentException when the plan could not be programmed into a kernel as it is (a
     *                                  jump to a missing chain, a route naming a missing nexthop, ...)
     */
    public CompiledNetwork(ClusterSetPlan plan) {
        this(plan, true);
    }

    /**
     * The network with each host compiled when a packet first reaches it. A plan that could not be
     * programmed into a kernel is found only then: {@link #host} throws what the constructor would.
     */
    public static CompiledNetwork compilingOnFirstUse(ClusterSetPlan plan) {
        return new CompiledNetwork(plan, false);
    }

    private CompiledNetwork(ClusterSetPlan plan, boolean compileNow) {
        plans = new ArrayList<>(plan.hosts().values());
        // OVN logical routers are hops of their own, after the hosts: their ports are interfaces on
        // the segments that carry their logical switches.
        routers = new HashMap<>();
        for (OvnTopology topology : plan.ovn()) {
            for (LogicalRouter router : topology.routers()) {
                LogicalRouterPipeline pipeline = new LogicalRouterPipeline(topology, router);
                routers.put(pipeline.id(), pipeline);
                plans.add(pipeline.asHost());
            }
        }
        Map<HostId, HostPlan> byId = new HashMap<>(plan.hosts());
        hosts = new AtomicReferenceArray<>(plans.size());
        List<HostId> ids = new ArrayList<>();
        effective = new ArrayList<>();
        List<List<Interface>> interfaces = new ArrayList<>();
        CompiledHost[] compiled = new CompiledHost[compileNow ? plans.size() : 0];
        // Shared by the hosts of this compilation only: hosts compiled later, perhaps by several threads at once, compile their own.
        SharedCompilation shared = new SharedCompilation();
        for (int i = 0; i < plans.size(); i++) {
            HostPlan host = plans.get(i);
            DataplanePlan merged = host.effective();
            if (compileNow) {
                // Compiled in this order, before the wiring, so that a plan with several faults names the same one first.
                compiled[i] = new CompiledHost(i, host, merged, routers.get(host.id()), shared);
            }
            byId.put(host.id(), host);
            index.put(host.id(), i);
            ids.add(host.id());
            effective.add(merged);
            interfaces.add(host.interfaces());
        }
        wiring = new Wiring(plan.segments(), index, byId);
        vxlan = new VxlanFabric(ids, effective, interfaces);
        wireGuard = new WireGuardFabric(effective);
        ipsec = new IpsecPolicies(effective);
        for (CompiledHost host : compiled) {
            host.connect(wiring, vxlan, wireGuard);
            hosts.set(host.index, host);
        }
    }

    /** The host's index, or -1 when the plan has no such host. */
    public int indexOf(HostId id) {
        Integer i = index.get(id);
        return i == null ? -1 : i;
    }

    /** The compiled chains and rules of every host (each compiled now if no packet reached it before). */
    public NetfilterFootprint netfilterFootprint() {
        List<Ruleset> rulesets = new ArrayList<>();
        for (int i = 0; i < hosts.length(); i++) {
            rulesets.add(host(i).ruleset);
        }
        return NetfilterFootprint.of(rulesets);
    }

    /** The host at index {@code i}, compiled now if no packet reached it before. */
    CompiledHost host(int i) {
        CompiledHost host = hosts.getAcquire(i);
        return host != null ? host : compile(i);
    }

    private CompiledHost compile(int i) {
        HostPlan plan = plans.get(i);
        CompiledHost host = new CompiledHost(i, plan, effective.get(i), routers.get(plan.id()), new SharedCompilation());
        host.connect(wiring, vxlan, wireGuard);
        // Two threads may compile the same host at once; both get the first one stored, equal to theirs.
        CompiledHost stored = hosts.compareAndExchange(i, null, host);
        return stored != null ? stored : host;
    }
}
