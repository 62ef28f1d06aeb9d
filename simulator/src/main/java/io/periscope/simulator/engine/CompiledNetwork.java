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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole cluster set plan compiled for tracing: every host, the OVN logical routers, the wiring
 * between them, the VXLAN, WireGuard and IPsec cables.
 */
public final class CompiledNetwork {

    final CompiledHost[] hosts;
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
        List<HostPlan> plans = new ArrayList<>(plan.hosts().values());
        // OVN logical routers are hops of their own, after the hosts: their ports are interfaces on
        // the segments that carry their logical switches.
        Map<HostId, LogicalRouterPipeline> routers = new HashMap<>();
        for (OvnTopology topology : plan.ovn()) {
            for (LogicalRouter router : topology.routers()) {
                LogicalRouterPipeline pipeline = new LogicalRouterPipeline(topology, router);
                routers.put(pipeline.id(), pipeline);
                plans.add(pipeline.asHost());
            }
        }
        Map<HostId, HostPlan> byId = new HashMap<>(plan.hosts());
        hosts = new CompiledHost[plans.size()];
        List<HostId> ids = new ArrayList<>();
        List<DataplanePlan> effective = new ArrayList<>();
        List<List<Interface>> interfaces = new ArrayList<>();
        for (int i = 0; i < plans.size(); i++) {
            HostPlan host = plans.get(i);
            DataplanePlan merged = host.effective();
            hosts[i] = new CompiledHost(i, host, merged, routers.get(host.id()));
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
        for (CompiledHost host : hosts) {
            host.connect(wiring, vxlan);
        }
    }

    /** The host's index, or -1 when the plan has no such host. */
    public int indexOf(HostId id) {
        Integer i = index.get(id);
        return i == null ? -1 : i;
    }

    CompiledHost host(int i) {
        return hosts[i];
    }
}
