package io.periscope.dataplane.reconcile;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.Names;
import io.periscope.plan.routing.RouteProtocol;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What Periscope may touch on a node besides what its plan names: chains, ipsets and VXLAN devices
 * by name prefix, and routes of the given protocols in the given tables (or through its own
 * devices). Everything else (the CNI's routes, kube-proxy's chains, the node's own links) belongs to
 * someone else: it is read only as far as a plan names it and never deleted.
 *
 * @param chainPrefixes  user chains Periscope owns whole, e.g. {@code SUBMARINER-}, {@code SM-GN-}
 * @param ipsetPrefixes  ipsets Periscope owns
 * @param linkPrefixes   VXLAN devices Periscope owns (with their FDB and permanent neighbours)
 * @param routeTables    tables whose routes of {@code routeProtocols}, and whose policy rules, are Periscope's
 * @param routeProtocols protocols of Periscope's routes; a route of another protocol is Periscope's
 *                       only when the plan names it
 */
public record Ownership(List<String> chainPrefixes, List<String> ipsetPrefixes, List<String> linkPrefixes,
                        Set<Integer> routeTables, Set<RouteProtocol> routeProtocols) {

    public Ownership {
        chainPrefixes = List.copyOf(chainPrefixes);
        ipsetPrefixes = List.copyOf(ipsetPrefixes);
        linkPrefixes = List.copyOf(linkPrefixes);
        routeTables = Set.copyOf(routeTables);
        routeProtocols = Set.copyOf(routeProtocols);
    }

    /**
     * A real node: Submariner's chains and sets, its two VXLAN devices, its routing tables (100 for
     * the cable, 149 for OVN, 150 for host networking) and its routes there and through its devices:
     * the route agent's are {@code proto static}, the vxlan cable's {@code proto boot} (upstream's
     * driver gives them no protocol, and its cleanup finds them by table and device, not by
     * protocol). The kernel's own routes ({@code proto kernel}) never are. {@code KUBE-} chains are
     * kube-proxy's and not Periscope's here.
     */
    public static Ownership submariner() {
        return new Ownership(Names.OWNED_PREFIXES, Names.OWNED_PREFIXES, Names.OWNED_DEVICES, Set.copyOf(Names.OWNED_TABLES),
                EnumSet.of(RouteProtocol.STATIC, RouteProtocol.BOOT));
    }

    /** The same ownership plus more chain prefixes (the lab plays kube-proxy and passes {@code KUBE-}). */
    public Ownership withChainPrefixes(String... prefixes) {
        List<String> all = new ArrayList<>(chainPrefixes);
        all.addAll(List.of(prefixes));
        return new Ownership(all, ipsetPrefixes, linkPrefixes, routeTables, routeProtocols);
    }

    public Ownership withIpsetPrefixes(String... prefixes) {
        List<String> all = new ArrayList<>(ipsetPrefixes);
        all.addAll(List.of(prefixes));
        return new Ownership(chainPrefixes, all, linkPrefixes, routeTables, routeProtocols);
    }

    public Ownership withRouteTables(Integer... tables) {
        Set<Integer> all = new TreeSet<>(routeTables);
        all.addAll(List.of(tables));
        return new Ownership(chainPrefixes, ipsetPrefixes, linkPrefixes, all, routeProtocols);
    }

    public Ownership withRouteProtocols(RouteProtocol... protocols) {
        Set<RouteProtocol> all = EnumSet.noneOf(RouteProtocol.class);
        all.addAll(routeProtocols);
        all.addAll(List.of(protocols));
        return new Ownership(chainPrefixes, ipsetPrefixes, linkPrefixes, routeTables, all);
    }

    /** What Periscope owns when it programs {@code plan}: these prefixes plus everything the plan names. */
    public Scope scopeFor(DataplanePlan plan) {
        return new Scope(this, List.of(plan));
    }
}
