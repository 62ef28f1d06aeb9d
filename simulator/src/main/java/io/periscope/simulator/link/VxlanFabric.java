package io.periscope.simulator.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every host's VXLAN devices with their FDB entries, and how a frame sent through one finds its outer
 * destination. As upstream programs them, the devices have the MAC the kernel gives them and the FDB
 * holds all-zero entries only: sending to next hop N, an ARP request flooded to those destinations is
 * answered by the host whose device of the same VNI owns N, and the frame for that device's MAC, which
 * no FDB entry names, is flooded to them too; only that device keeps its copy, so the copy that matters
 * is the one to its host. A learning device (seed 004's {@code vxlan-tunnel} towards several active
 * gateways) learned that MAC from the ARP reply and sends the frame to that host alone: {@link #copies}
 * says how many copies of each frame leave. No plan names a VXLAN device's MAC, so a trace names it by
 * its device.
 */
public final class VxlanFabric {

    /** The MAC of a host's VXLAN device, which the kernel picked: named by the device, never by an invented address. */
    public record DeviceMac(HostId host, String device) {
        @Override
        public String toString() {
            return host + " " + device + "'s MAC";
        }
    }

    /** How the outer destination was found, or why it was not. */
    public sealed interface Resolution {
        record Found(DeviceMac mac, Ipv4Address outerDestination, String how) implements Resolution {
        }

        record Failed(String reason) implements Resolution {
        }
    }

    /** @param keys each device's UDP port and VNI as one long, aligned with {@code devices}, for receiving */
    private record HostDevices(HostId id, String cluster, Map<String, VxlanDevice> byName, VxlanDevice[] devices, long[] keys,
                               Map<String, List<FdbEntry>> fdb) {
    }

    private static long key(int port, int vni) {
        return (long) port << 32 | (vni & 0xffffffffL);
    }

    private final List<HostDevices> hosts = new ArrayList<>();
    private final Map<Integer, List<Integer>> underlayOwners = new HashMap<>();

    /**
     * @param plans and {@code interfaces}: each host's effective plan and interfaces, by host index
     * @throws IllegalArgumentException when a plan fixes a peer's MAC on a VXLAN device (an FDB entry
     *         for another MAC than the all-zero one, a neighbour entry): the kernel picks the devices'
     *         MACs, so no plan can know them
     */
    public VxlanFabric(List<HostId> ids, List<DataplanePlan> plans, List<List<Interface>> interfaces) {
        for (int i = 0; i < ids.size(); i++) {
            DataplanePlan plan = plans.get(i);
            Map<String, VxlanDevice> byName = new HashMap<>();
            for (VxlanDevice d : plan.vxlanDevices()) {
                byName.put(d.name(), d);
            }
            for (Neighbour n : plan.neighbours()) {
                if (byName.containsKey(n.device())) {
                    throw new IllegalArgumentException(ids.get(i) + ": the neighbour entry " + n.address() + " lladdr " + n.mac() + " on "
                            + n.device() + " names a MAC the kernel picks; leave it out, ARP over the all-zero FDB entries resolves "
                            + n.address());
                }
            }
            Map<String, List<FdbEntry>> fdb = new HashMap<>();
            for (FdbEntry e : plan.fdb()) {
                if (!e.mac().equals(MacAddress.ZERO)) {
                    throw new IllegalArgumentException(ids.get(i) + ": the FDB entry " + e.mac() + " dst " + e.destination() + " on "
                            + e.device() + " names a MAC the kernel picks; give the peer an all-zero entry (00:00:00:00:00:00 dst "
                            + e.destination() + ") instead");
                }
                fdb.computeIfAbsent(e.device(), d -> new ArrayList<>()).add(e);
            }
            VxlanDevice[] devices = plan.vxlanDevices().toArray(VxlanDevice[]::new);
            long[] keys = plan.vxlanDevices().stream().mapToLong(d -> key(d.port(), d.vni())).toArray();
            hosts.add(new HostDevices(ids.get(i), ids.get(i).cluster(), byName, devices, keys, fdb));
            for (Interface iface : interfaces.get(i)) {
                for (Ipv4Address a : iface.addresses()) {
                    underlayOwners.computeIfAbsent(a.bits(), k -> new ArrayList<>()).add(i);
                }
            }
        }
    }

    /** The MAC of {@code host}'s VXLAN device {@code device}. */
    public DeviceMac mac(int host, VxlanDevice device) {
        return new DeviceMac(hosts.get(host).id(), device.name());
    }

    /** The VXLAN device {@code name} of the host, or null when the name is not a VXLAN device there. */
    public VxlanDevice device(int host, String name) {
        return hosts.get(host).byName().get(name);
    }

    /** The device of the host that takes UDP datagrams to {@code port} with {@code vni}, or null. */
    public VxlanDevice receiver(int host, int port, int vni) {
        HostDevices devices = hosts.get(host);
        long key = key(port, vni);
        for (int i = 0; i < devices.keys().length; i++) {
            if (devices.keys()[i] == key) {
                return devices.devices()[i];
            }
        }
        return null;
    }

    /** Where frames sent by one host through one of its VXLAN devices go, by next hop; answers kept. */
    public final class Resolver {

        private final int host;
        private final VxlanDevice device;
        private final Map<Ipv4Address, Resolution> known = new ConcurrentHashMap<>();
        /**
         * The first {@link #FEW} answers, searched by the next hop's bits before the map: every hop
         * through the device asks, mostly for one of a few next hops (the remote gateways or nodes),
         * and the map's hashing of an address record was a twentieth of a trace. Replaced, never
         * changed, so a reader sees a whole array.
         */
        private volatile Answered[] first = new Answered[0];

        /** The device's VNI as the encapsulation step of every packet it wraps carries it, made once. */
        private final OptionalInt vni;

        private Resolver(int host, VxlanDevice device) {
            this.host = host;
            this.device = device;
            this.vni = OptionalInt.of(device.vni());
        }

        public VxlanDevice device() {
            return device;
        }

        /** {@code OptionalInt.of(device().vni())}, the same object every time. */
        public OptionalInt vni() {
            return vni;
        }

        public Resolution resolve(Ipv4Address nextHop) {
            int bits = nextHop.bits();
            for (Answered a : first) {
                if (a.nextHop() == bits) {
                    return a.resolution();
                }
            }
            Resolution answer = known.get(nextHop);
            return answer != null ? answer : answerFirst(nextHop);
        }

        private synchronized Resolution answerFirst(Ipv4Address nextHop) {
            Resolution answer = known.computeIfAbsent(nextHop, n -> answer(host, device, n));
            Answered[] now = first;
            if (now.length < FEW && Arrays.stream(now).noneMatch(a -> a.nextHop() == nextHop.bits())) {
                Answered[] more = Arrays.copyOf(now, now.length + 1);
                more[now.length] = new Answered(nextHop.bits(), answer);
                first = more;
            }
            return answer;
        }
    }

    /** How many next hops of a device are found by a scan before a map lookup. */
    private static final int FEW = 8;

    private record Answered(int nextHop, Resolution resolution) {
    }

    /**
     * How many copies of a unicast frame {@code plan}'s VXLAN device {@code name} sends once ARP has
     * resolved its next hop: one when it learns (the reply taught it where that MAC is), else one per
     * all-zero FDB destination, as the kernel floods a frame for a MAC no entry names; one for a
     * device the plan does not have as VXLAN.
     */
    public static int copies(DataplanePlan plan, String name) {
        boolean learning = plan.vxlanDevices().stream().filter(d -> d.name().equals(name)).findFirst().map(VxlanDevice::learning).orElse(true);
        if (learning) {
            return 1;
        }
        return (int) Math.max(1, plan.fdb().stream().filter(e -> e.device().equals(name) && e.mac().equals(MacAddress.ZERO)).count());
    }

    /** A resolver for {@code host}'s VXLAN device {@code name}, or null when that is no VXLAN device there. */
    public Resolver resolver(int host, String name) {
        VxlanDevice device = device(host, name);
        return device == null ? null : new Resolver(host, device);
    }

    private Resolution answer(int host, VxlanDevice device, Ipv4Address nextHop) {
        HostDevices self = hosts.get(host);
        List<FdbEntry> defaults = self.fdb().getOrDefault(device.name(), List.of());
        if (defaults.isEmpty()) {
            return new Resolution.Failed(self.id() + " " + device.name() + ": no FDB entry to flood an ARP request for " + nextHop + " to");
        }
        for (FdbEntry e : defaults) {
            DeviceMac owner = owner(host, e.destination(), device, nextHop);
            if (owner != null) {
                // A learning device (seed 004) noted where the ARP reply came from, so the frame goes
                // there alone; upstream's floods it like the request.
                String frame = device.learning()
                        ? "; the device learned that MAC at " + e.destination() + " from the reply, so the frame goes there alone"
                        : "; the frame for it, which no FDB entry names, is flooded to the same destinations and kept by "
                                + e.destination() + " alone";
                return new Resolution.Found(owner, e.destination(), "ARP flooded to " + destinations(defaults) + ": " + nextHop + " is at "
                        + owner + frame);
            }
        }
        return new Resolution.Failed(self.id() + " " + device.name() + ": ARP for " + nextHop + " flooded to "
                + destinations(defaults) + " gets no answer (no device with VNI " + device.vni() + " owns it)");
    }

    /**
     * The device at underlay address {@code destination} that answers an ARP request for {@code address}.
     * Underlay addresses may repeat across clusters with overlapping networks; the sender's own cluster is
     * asked first, as its underlay is where the request goes.
     */
    private DeviceMac owner(int sender, Ipv4Address destination, VxlanDevice device, Ipv4Address address) {
        List<Integer> owners = underlayOwners.getOrDefault(destination.bits(), List.of());
        String cluster = hosts.get(sender).cluster();
        List<Integer> ordered = new ArrayList<>(owners.stream().filter(o -> hosts.get(o).cluster().equals(cluster)).toList());
        owners.stream().filter(o -> !hosts.get(o).cluster().equals(cluster)).forEach(ordered::add);
        for (int o : ordered) {
            for (VxlanDevice d : hosts.get(o).byName().values()) {
                if (d.vni() == device.vni() && d.port() == device.port() && d.address().equals(address)) {
                    return mac(o, d);
                }
            }
        }
        return null;
    }

    private static String destinations(List<FdbEntry> entries) {
        return entries.stream().map(e -> e.destination().toString()).toList().toString();
    }
}
