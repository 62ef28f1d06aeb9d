package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.simulator.netfilter.Ruleset;
import io.periscope.simulator.netfilter.SharedCompilation;
import io.periscope.simulator.ovn.LogicalRouterPipeline;
import io.periscope.simulator.routing.RoutingPolicy;

import io.periscope.simulator.link.VxlanFabric;
import io.periscope.simulator.link.WireGuardFabric;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.MultipathHashSettings;
import io.periscope.simulator.routing.RouteDecision;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One host's plan turned into lookup structures once per plan: policy routing with its tables,
 * iptables with resolved chains and ipsets, and each device's first address (for source address
 * selection and MASQUERADE).
 */
final class CompiledHost {

    /** The sysctl that decides whether a namespace routes packets that are not its own. */
    static final String IP_FORWARD = "net.ipv4.ip_forward";
    /** Whether conntrack picks up TCP connections from a mid-stream segment (the kernel's default is 1). */
    static final String TCP_LOOSE = "net.netfilter.nf_conntrack_tcp_loose";

    final int index;
    final HostId id;
    final String name;
    final boolean pod;
    final boolean forwards;
    final boolean tcpLoose;
    /** The multipath hash policy and fields the plan's sysctls give (the kernel's defaults where it sets none). */
    final MultipathHashSettings multipathHash;
    /** Each device's reverse-path filter: the kernel's max(conf.all, conf.DEVICE); others have rpFilterOfOthers. */
    private final int rpFilterOfOthers;
    final RoutingPolicy routing;
    final Ruleset ruleset;
    /** The netfilter stages of each part of the path that can do anything here: see {@link NetfilterPass#present}. */
    final NetfilterPass.Stage[][] stages;
    private final Map<String, Ipv4Address> firstAddress;
    /** Each device's MTU: what a socket's SYN offers as its MSS, and which packets fit, depend on it. */
    private final Map<String, Integer> mtu = new HashMap<>();
    /**
     * Every device name of the host as the optional a hop carries, so finishing a hop allocates none,
     * and its reverse-path filter.
     */
    private final DeviceTable devices;

    /** This host's {@code TCPMSS --clamp-mss-to-pmtu}, for its netfilter traversals to ask when a rule needs it. */
    final io.periscope.simulator.netfilter.TableRun.MssClamp mssClamp = (out, source) -> Mtu.clampedMss(this, out, source);

    /** For an OVN logical router, its pipeline (it has no kernel: no netfilter, no policy routing); null for a host. */
    final LogicalRouterPipeline logical;

    CompiledHost(int index, HostPlan plan, DataplanePlan effective, LogicalRouterPipeline logical, SharedCompilation shared) {
        this.index = index;
        this.logical = logical;
        this.id = plan.id();
        this.name = plan.id().toString();
        this.pod = plan.role() == HostPlan.HostRole.POD;
        // Pods do not route; nodes and gateways do. An explicit sysctl in the plan wins either way.
        String forward = effective.sysctls().get(IP_FORWARD);
        this.forwards = forward == null ? !pod : forward.equals("1");
        this.tcpLoose = !"0".equals(effective.sysctls().get(TCP_LOOSE));
        this.multipathHash = MultipathHashSettings.of(effective.sysctls());
        Map<Ipv4Address, String> local = new LinkedHashMap<>();
        Set<String> deviceNames = new LinkedHashSet<>();
        firstAddress = new HashMap<>();
        for (Interface iface : plan.interfaces()) {
            for (Ipv4Address a : iface.addresses()) {
                local.putIfAbsent(a, iface.name());
            }
            if (!iface.addresses().isEmpty()) {
                firstAddress.put(iface.name(), iface.addresses().getFirst());
            }
        }
        for (VxlanDevice d : effective.vxlanDevices()) {
            local.putIfAbsent(d.address(), d.name());
            firstAddress.put(d.name(), d.address());
            deviceNames.add(d.name());
        }
        for (Interface iface : plan.interfaces()) {
            deviceNames.add(iface.name());
            mtu.put(iface.name(), iface.mtu());
        }
        effective.vxlanDevices().forEach(d -> mtu.put(d.name(), d.mtu()));
        effective.wireGuardDevices().forEach(d -> mtu.put(d.name(), d.mtu()));
        // A device copies conf.default when it is created (Periscope's devices are all created after
        // the namespace-wide sysctls are written), unless the plan sets its own value.
        int all = sysctlInt(effective, "net.ipv4.conf.all.rp_filter");
        int byDefault = sysctlInt(effective, "net.ipv4.conf.default.rp_filter");
        this.rpFilterOfOthers = Math.max(all, byDefault);
        int[] rpFilters = new int[deviceNames.size()];
        int i = 0;
        for (String device : deviceNames) {
            String own = effective.sysctls().get("net.ipv4.conf." + device + ".rp_filter");
            rpFilters[i++] = Math.max(all, own == null ? byDefault : parseRpFilter(own));
        }
        this.devices = new DeviceTable(deviceNames, rpFilters);
        this.routing = RoutingPolicy.compile(name, effective, local);
        this.ruleset = Ruleset.compile(name, effective, routing::isLocal, shared);
        this.stages = NetfilterPass.present(ruleset);
    }

    /**
     * How a packet leaves by a nexthop: through a VXLAN device (with its resolver), else through the
     * WireGuard device of that name (null when it is none), else over a segment; {@code peer} is where
     * it arrives when that does not depend on the next hop (a veth). The device's name as a hop
     * carries it, its MTU and its first address (null when it has none) are here too, so that no hop
     * looks them up by name.
     */
    record Egress(VxlanFabric.Resolver vxlan, WireGuardDevice wireGuard, Wiring.Link link, Wiring.Delivery.Reached peer,
                  Optional<String> device, int mtu, Ipv4Address firstAddress) {
    }

    /** By nexthop serial: routing hands out the very nexthops compiled here. */
    private Egress[] egress = new Egress[0];

    /** Resolves every nexthop's way out once the network's wiring and VXLAN fabric exist. */
    void connect(Wiring wiring, VxlanFabric vxlan, WireGuardFabric wireGuard) {
        Map<String, Egress> byDevice = new HashMap<>();
        List<CompiledNexthop> nexthops = routing.nexthops();
        egress = new Egress[nexthops.size()];
        for (CompiledNexthop nexthop : nexthops) {
            egress[nexthop.serial()] = byDevice.computeIfAbsent(nexthop.device(),
                    d -> new Egress(vxlan.resolver(index, d), wireGuard.device(index, d), wiring.link(index, d), wiring.peer(index, d),
                            device(d), mtu(d), firstAddress(d)));
        }
    }

    /** The way out by {@code nexthop}, one of this host's. */
    Egress egress(CompiledNexthop nexthop) {
        return egress[nexthop.serial()];
    }

    /** {@code device} as an optional; empty for null. */
    Optional<String> device(String device) {
        return devices.optional(device);
    }

    /** The reverse-path filter a packet arriving on {@code device} meets: 0 off, 1 strict, 2 loose. */
    int rpFilter(String device) {
        return devices.rpFilter(device, rpFilterOfOthers);
    }

    private static int sysctlInt(DataplanePlan plan, String key) {
        String value = plan.sysctls().get(key);
        return value == null ? 0 : parseRpFilter(value);
    }

    /** The kernel takes any value; above 2 acts as loose would not, so only 0, 1 and 2 mean something. */
    private static int parseRpFilter(String value) {
        try {
            return Math.min(2, Math.max(0, Integer.parseInt(value.trim())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rp_filter must be 0, 1 or 2, not '" + value + "'");
        }
    }

    /** The MTU of {@code device}: the plan's, loopback's 65536, else Ethernet's 1500. */
    int mtu(String device) {
        Integer known = mtu.get(device);
        if (known != null) {
            return known;
        }
        return RoutingPolicy.LOOPBACK.equals(device) ? LOOPBACK_MTU : Interface.DEFAULT_MTU;
    }

    /** The kernel's MTU for {@code lo}. */
    private static final int LOOPBACK_MTU = 65536;

    /** Where the host's own socket sends toward an address: the source address and the device routing picks. */
    record SocketRoute(Ipv4Address source, String device) {
    }

    /** A destination's {@link SocketRoute} (null: none), as {@link #socketRoute} found it. */
    private record KnownRoute(int destination, SocketRoute route) {
    }

    /** How many destinations {@link #socketRoute} keeps: a host's cables lead to a few remote ends. */
    private static final int KNOWN_ROUTES = 16;

    /** Replaced, never changed, so a reader on another thread sees a whole array. */
    private volatile KnownRoute[] knownRoutes = new KnownRoute[0];

    /**
     * How the host would send to {@code destination} from an unbound socket (no mark, no source): the
     * source address and device routing picks, or null when it has no route or no address there. The
     * routing never changes, and every packet a cable wraps asks for one of a few remote ends (a
     * VXLAN device's FDB destinations, a WireGuard peer, an IPsec right), so the first answers are
     * kept instead of routing the outer packet again on every hop.
     */
    SocketRoute socketRoute(Ipv4Address destination) {
        int bits = destination.bits();
        KnownRoute[] known = knownRoutes;
        for (KnownRoute k : known) {
            if (k.destination() == bits) {
                return k.route();
            }
        }
        SocketRoute route = routeFromSocket(destination);
        if (known.length < KNOWN_ROUTES) {
            KnownRoute[] more = Arrays.copyOf(known, known.length + 1);
            more[known.length] = new KnownRoute(bits, route);
            // Two threads may both add an answer: the same one, so losing either is harmless.
            knownRoutes = more;
        }
        return route;
    }

    private SocketRoute routeFromSocket(Ipv4Address destination) {
        if (routing.lookup(destination, Ipv4Address.ANY, 0, RoutingPolicy.LOOPBACK, null) instanceof RouteDecision.Forward f
                && !f.nexthops().isEmpty()) {
            CompiledNexthop nh = f.nexthops().getFirst();
            Optional<Ipv4Address> routeSource = f.route().route().source();
            Ipv4Address source = routeSource.isPresent() ? routeSource.get() : egress(nh).firstAddress();
            return source == null ? null : new SocketRoute(source, nh.device());
        }
        return null;
    }

    /** The device's first address, or null when it has none. */
    Ipv4Address firstAddress(String device) {
        return firstAddress.get(device);
    }
}
