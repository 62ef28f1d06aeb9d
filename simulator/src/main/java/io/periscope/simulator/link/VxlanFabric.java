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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every host's VXLAN devices with their neighbour and FDB entries, and how a frame sent through one
 * finds its outer destination. Sending to next hop N: the inner destination MAC is N's neighbour
 * entry, or, without one, whatever the host answers whose device of the same VNI owns N, asked by an
 * ARP request flooded to the default (all-zero MAC) FDB destinations. The FDB entry for that MAC gives
 * the outer destination; without one the frame goes to every default destination and only the device
 * with that MAC keeps it, so the copy that matters is the one to that device's host.
 */
public final class VxlanFabric {

    /** How the outer destination was found, or why it was not. */
    public sealed interface Resolution {
        record Found(MacAddress mac, Ipv4Address outerDestination, String how) implements Resolution {
        }

        record Failed(String reason) implements Resolution {
        }
    }

    /** @param keys each device's UDP port and VNI as one long, aligned with {@code devices}, for receiving */
    private record HostDevices(HostId id, String cluster, Map<String, VxlanDevice> byName, VxlanDevice[] devices, long[] keys,
                               Map<String, Map<Ipv4Address, MacAddress>> neighbours, Map<String, List<FdbEntry>> fdb) {
    }

    private static long key(int port, int vni) {
        return (long) port << 32 | (vni & 0xffffffffL);
    }

    private final List<HostDevices> hosts = new ArrayList<>();
    private final Map<Integer, List<Integer>> underlayOwners = new HashMap<>();

    /** @param plans and {@code interfaces}: each host's effective plan and interfaces, by host index */
    public VxlanFabric(List<HostId> ids, List<DataplanePlan> plans, List<List<Interface>> interfaces) {
        for (int i = 0; i < ids.size(); i++) {
            DataplanePlan plan = plans.get(i);
            Map<String, VxlanDevice> byName = new HashMap<>();
            for (VxlanDevice d : plan.vxlanDevices()) {
                byName.put(d.name(), d);
            }
            Map<String, Map<Ipv4Address, MacAddress>> neighbours = new HashMap<>();
            for (Neighbour n : plan.neighbours()) {
                neighbours.computeIfAbsent(n.device(), d -> new HashMap<>()).put(n.address(), n.mac());
            }
            Map<String, List<FdbEntry>> fdb = new HashMap<>();
            for (FdbEntry e : plan.fdb()) {
                fdb.computeIfAbsent(e.device(), d -> new ArrayList<>()).add(e);
            }
            VxlanDevice[] devices = plan.vxlanDevices().toArray(VxlanDevice[]::new);
            long[] keys = plan.vxlanDevices().stream().mapToLong(d -> key(d.port(), d.vni())).toArray();
            hosts.add(new HostDevices(ids.get(i), ids.get(i).cluster(), byName, devices, keys, neighbours, fdb));
            for (Interface iface : interfaces.get(i)) {
                for (Ipv4Address a : iface.addresses()) {
                    underlayOwners.computeIfAbsent(a.bits(), k -> new ArrayList<>()).add(i);
                }
            }
        }
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

        private Resolver(int host, VxlanDevice device) {
            this.host = host;
            this.device = device;
        }

        public VxlanDevice device() {
            return device;
        }

        public Resolution resolve(Ipv4Address nextHop) {
            Resolution answer = known.get(nextHop);
            return answer != null ? answer : known.computeIfAbsent(nextHop, n -> answer(host, device, n));
        }
    }

    /** A resolver for {@code host}'s VXLAN device {@code name}, or null when that is no VXLAN device there. */
    public Resolver resolver(int host, String name) {
        VxlanDevice device = device(host, name);
        return device == null ? null : new Resolver(host, device);
    }

    private Resolution answer(int host, VxlanDevice device, Ipv4Address nextHop) {
        HostDevices self = hosts.get(host);
        List<FdbEntry> entries = self.fdb().getOrDefault(device.name(), List.of());
        List<FdbEntry> defaults = entries.stream().filter(e -> e.mac().equals(MacAddress.ZERO)).toList();
        String how;
        MacAddress mac = self.neighbours().getOrDefault(device.name(), Map.of()).get(nextHop);
        if (mac != null) {
            how = "neighbour " + nextHop + " lladdr " + mac;
        } else {
            if (defaults.isEmpty()) {
                return new Resolution.Failed(self.id() + " " + device.name() + ": no neighbour entry for " + nextHop
                        + " and no default FDB entry to flood an ARP request to");
            }
            Answer answer = null;
            for (FdbEntry e : defaults) {
                answer = owner(host, e.destination(), device, nextHop, null);
                if (answer != null) {
                    break;
                }
            }
            if (answer == null) {
                return new Resolution.Failed(self.id() + " " + device.name() + ": ARP for " + nextHop + " flooded to "
                        + destinations(defaults) + " gets no answer (no device with VNI " + device.vni() + " owns it)");
            }
            mac = answer.mac();
            how = "ARP flooded to " + destinations(defaults) + ": " + nextHop + " is at " + mac;
        }
        for (FdbEntry e : entries) {
            if (e.mac().equals(mac)) {
                return new Resolution.Found(mac, e.destination(), how + ", fdb " + mac + " dst " + e.destination());
            }
        }
        for (FdbEntry e : defaults) {
            if (owner(host, e.destination(), device, null, mac) != null) {
                return new Resolution.Found(mac, e.destination(), how + ", no fdb entry for it: flooded to "
                        + destinations(defaults) + ", accepted by " + e.destination());
            }
        }
        return new Resolution.Failed(self.id() + " " + device.name() + ": frame for " + mac + " (" + nextHop + ") "
                + (defaults.isEmpty() ? "has no FDB entry" : "flooded to " + destinations(defaults) + " is accepted by no device"));
    }

    private record Answer(MacAddress mac) {
    }

    /**
     * The device at underlay address {@code destination} that answers for {@code address} (when given) or
     * has MAC {@code mac} (when given). Underlay addresses may repeat across clusters with overlapping
     * networks; the sender's own cluster is asked first, as its underlay is where the request goes.
     */
    private Answer owner(int sender, Ipv4Address destination, VxlanDevice device, Ipv4Address address, MacAddress mac) {
        List<Integer> owners = underlayOwners.getOrDefault(destination.bits(), List.of());
        String cluster = hosts.get(sender).cluster();
        List<Integer> ordered = new ArrayList<>(owners.stream().filter(o -> hosts.get(o).cluster().equals(cluster)).toList());
        owners.stream().filter(o -> !hosts.get(o).cluster().equals(cluster)).forEach(ordered::add);
        for (int o : ordered) {
            for (VxlanDevice d : hosts.get(o).byName().values()) {
                if (d.vni() != device.vni() || d.port() != device.port()) {
                    continue;
                }
                if (address != null && d.address().equals(address)) {
                    return new Answer(d.mac());
                }
                if (mac != null && d.mac().equals(mac)) {
                    return new Answer(d.mac());
                }
            }
        }
        return null;
    }

    private static String destinations(List<FdbEntry> entries) {
        return entries.stream().map(e -> e.destination().toString()).toList().toString();
    }
}
