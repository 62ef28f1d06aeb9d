package io.periscope.lab.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.lab.capture.CaptureTarget;
import io.periscope.lab.capture.Direction;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.HostId;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The interfaces of the lab's hosts as the kernel reports them ({@code ip -j link show} in each
 * namespace), read when a flow first needs a host and kept: the capture targets of each host and
 * the MAC of every interface read so far. Reading every host of a lab of thousands of pods up front
 * took minutes before the first flow; a flow needs the nodes and the few pods it crosses.
 */
final class LabInterfaces {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CommandRunner runner;
    private final Map<HostId, List<CaptureTarget>> targets = new HashMap<>();
    private final Map<LabWiring.Port, MacAddress> macs = new HashMap<>();

    LabInterfaces(CommandRunner runner) {
        this.runner = runner;
    }

    /** What to capture on in {@code host}: every interface with a MAC but {@code lo}, and each WireGuard device once per direction. */
    List<CaptureTarget> of(HostNamespace host) {
        return targets.computeIfAbsent(host.host(), id -> read(host));
    }

    /** The MAC of every interface of the hosts read so far. */
    Map<LabWiring.Port, MacAddress> macs() {
        return macs;
    }

    private static boolean isUp(JsonNode link) {
        for (JsonNode flag : link.path("flags")) {
            if (flag.asText().equals("UP")) {
                return true;
            }
        }
        return false;
    }

    private List<CaptureTarget> read(HostNamespace host) {
        List<CaptureTarget> found = new ArrayList<>();
        String json = runner.run(Command.of("ip", "-n", host.namespace(), "-j", "link", "show")).stdout();
        JsonNode links;
        try {
            links = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("ip printed JSON that cannot be read: " + e.getMessage(), e);
        }
        for (JsonNode link : links) {
            String name = link.path("ifname").asText();
            if (name.equals("lo") || !link.hasNonNull("address")) {
                continue;
            }
            // A device that is down carries nothing and cannot be captured on: on an OVN node, the
            // devices ovs-vswitchd makes for its userspace datapath and bridges (ovs-netdev, br-int).
            if (!isUp(link)) {
                continue;
            }
            MacAddress mac = MacAddress.parse(link.get("address").asText());
            macs.put(new LabWiring.Port(host.host(), name), mac);
            found.add(new CaptureTarget(host.host(), host.namespace(), name, mac));
        }
        for (WireGuardDevice device : host.plan().submariner().wireGuardDevices()) {
            found.add(CaptureTarget.layer3(host.host(), host.namespace(), device.name(), Direction.LEAVING));
            found.add(CaptureTarget.layer3(host.host(), host.namespace(), device.name(), Direction.ARRIVING));
        }
        return List.copyOf(found);
    }
}
