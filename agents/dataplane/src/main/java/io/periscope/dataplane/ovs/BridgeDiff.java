package io.periscope.dataplane.ovs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The changes that bring a node's OVS and kernel from what was read to the bridges wanted, and the
 * changes that undo applied ones. Pure: the programmer reads and runs.
 *
 * <p>Only owned bridges are ever deleted, and of the bridge mappings only the entries naming an
 * owned bridge are ever removed; the other entries keep their order. Ports a bridge has besides its
 * internal port (ovn-controller's patch port to the integration bridge) are OVN's and stay.
 */
public final class BridgeDiff {

    private BridgeDiff() {
    }

    /**
     * @param owned the bridges the agent may delete: its own names and those it last applied
     * @throws IllegalStateException when the node has no integration bridge yet: a localnet bridge
     *                               must have its datapath type (OVN patches the two together)
     */
    public static List<BridgeChange> between(OvsPicture current, List<NodeBridge> wanted, Set<String> owned) {
        List<BridgeChange> ovs = new ArrayList<>();
        List<BridgeChange> kernel = new ArrayList<>();
        Set<String> wantedNames = new LinkedHashSet<>();
        wanted.forEach(b -> wantedNames.add(b.bridge()));
        for (String name : owned) {
            if (!wantedNames.contains(name) && current.bridges().containsKey(name)) {
                ovs.add(new BridgeChange.DeleteBridge(name));
            }
        }
        if (!wanted.isEmpty() && current.integrationDatapath().isEmpty()) {
            throw new IllegalStateException("the node has no integration bridge " + current.integrationBridge()
                    + " yet (OVN-Kubernetes makes it): its bridges wait for it");
        }
        for (NodeBridge bridge : wanted) {
            String datapath = current.integrationDatapath().orElseThrow();
            OvsPicture.Bridge existing = current.bridges().get(bridge.bridge());
            if (existing == null) {
                ovs.add(new BridgeChange.AddBridge(bridge.bridge(), datapath));
            } else if (!existing.datapathType().equals(datapath)) {
                ovs.add(new BridgeChange.SetDatapath(bridge.bridge(), datapath));
            }
            Optional<OvsPicture.Port> port = Optional.ofNullable(existing).map(b -> b.interfaces().get(bridge.internalPort()));
            boolean portRight = port.filter(p -> p.type().equals("internal") && p.mtuRequest().equals(OptionalInt.of(bridge.mtu()))
                    && (bridge.mac().isEmpty() || p.mac().equals(bridge.mac()))).isPresent();
            if (!portRight) {
                ovs.add(new BridgeChange.InternalPort(bridge.bridge(), bridge.internalPort(), bridge.mac(), bridge.mtu(), port.isPresent()));
            }
            OvsPicture.PortKernel device = current.kernel().getOrDefault(bridge.internalPort(),
                    new OvsPicture.PortKernel(List.of(), false, Optional.empty()));
            if (!device.cidrs().contains(bridge.cidr())) {
                kernel.add(new BridgeChange.AddAddress(bridge.internalPort(), bridge.cidr()));
            }
            device.cidrs().stream().filter(c -> !c.equals(bridge.cidr())).forEach(c -> kernel.add(new BridgeChange.RemoveAddress(bridge.internalPort(), c)));
            if (!device.up()) {
                kernel.add(new BridgeChange.LinkUp(bridge.internalPort()));
            }
            if (datapath.equals("netdev") && !device.txChecksums().equals(Optional.of(false))) {
                kernel.add(new BridgeChange.TxChecksumsOff(bridge.internalPort()));
            }
        }
        List<String> mappings = new ArrayList<>();
        for (String entry : current.mappings()) {
            String bridge = entry.substring(entry.indexOf(':') + 1);
            boolean ours = owned.contains(bridge) || wantedNames.contains(bridge);
            if (!ours || wanted.stream().anyMatch(w -> w.mapping().equals(entry))) {
                mappings.add(entry);
            }
        }
        wanted.stream().map(NodeBridge::mapping).filter(m -> !mappings.contains(m)).forEach(mappings::add);
        if (!mappings.equals(current.mappings())) {
            ovs.add(new BridgeChange.SetMappings(current.mappings(), mappings));
        }
        List<BridgeChange> all = new ArrayList<>(ovs);
        all.addAll(kernel);
        return all;
    }

    /**
     * What undoes {@code applied} (changes of a diff from {@code before}, in the order run), last
     * first: the kernel changes on devices that are still there, then the OVS part again as one
     * transaction, then the addresses of the ports of a bridge it made again.
     */
    public static List<BridgeChange> undo(List<BridgeChange> applied, OvsPicture before) {
        List<BridgeChange> first = new ArrayList<>();
        List<BridgeChange> ovs = new ArrayList<>();
        List<BridgeChange> kernel = new ArrayList<>();
        for (BridgeChange change : applied.reversed()) {
            switch (change) {
                case BridgeChange.AddBridge add -> ovs.add(new BridgeChange.DeleteBridge(add.bridge()));
                case BridgeChange.SetDatapath set -> ovs.add(new BridgeChange.SetDatapath(set.bridge(),
                        before.bridges().get(set.bridge()).datapathType()));
                case BridgeChange.InternalPort port -> {
                    if (port.exists()) {
                        OvsPicture.Port was = before.bridges().get(port.bridge()).interfaces().get(port.port());
                        ovs.add(new BridgeChange.InternalPort(port.bridge(), port.port(), was.mac(), was.mtuRequest().orElse(port.mtu()), true));
                    }
                    // A port added to a bridge that was there is deleted by itself; one of a bridge made goes with it.
                    else if (before.bridges().containsKey(port.bridge())) {
                        ovs.add(new BridgeChange.DeletePort(port.bridge(), port.port()));
                    }
                }
                case BridgeChange.SetMappings set -> ovs.add(new BridgeChange.SetMappings(set.after(), set.before()));
                case BridgeChange.DeleteBridge delete -> {
                    OvsPicture.Bridge was = before.bridges().get(delete.bridge());
                    ovs.add(new BridgeChange.AddBridge(was.name(), was.datapathType()));
                    for (OvsPicture.Port port : was.interfaces().values()) {
                        if (port.type().equals("internal") && !port.name().equals(was.name())) {
                            ovs.add(new BridgeChange.InternalPort(was.name(), port.name(), port.mac(), port.mtuRequest().orElse(1500), false));
                            OvsPicture.PortKernel device = before.kernel().get(port.name());
                            if (device != null) {
                                device.cidrs().forEach(c -> kernel.add(new BridgeChange.AddAddress(port.name(), c)));
                                if (device.up()) {
                                    kernel.add(new BridgeChange.LinkUp(port.name()));
                                }
                            }
                        }
                    }
                }
                case BridgeChange.AddAddress add -> first.add(new BridgeChange.RemoveAddress(add.port(), add.cidr()));
                case BridgeChange.RemoveAddress remove -> first.add(new BridgeChange.AddAddress(remove.port(), remove.cidr()));
                case BridgeChange.LinkUp up -> first.add(new BridgeChange.LinkDown(up.port()));
                case BridgeChange.TxChecksumsOff off -> first.add(new BridgeChange.TxChecksumsOn(off.port()));
                case BridgeChange.DeletePort delete -> throw new IllegalArgumentException("a diff deletes no single port: " + delete);
                case BridgeChange.LinkDown down -> throw new IllegalArgumentException("a diff takes no link down: " + down);
                case BridgeChange.TxChecksumsOn on -> throw new IllegalArgumentException("a diff turns no offload on: " + on);
            }
        }
        List<BridgeChange> all = new ArrayList<>(first);
        all.addAll(ovs);
        all.addAll(kernel);
        return all;
    }
}
