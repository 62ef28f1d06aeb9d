package io.periscope.simulator.link;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.cable.WireGuardDevice;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every host's WireGuard devices: by name (a route's output device) and by listen port (a datagram's receiver). */
public final class WireGuardFabric {

    private final List<Map<String, WireGuardDevice>> byName = new ArrayList<>();

    /** @param plans each host's effective plan, by host index */
    public WireGuardFabric(List<DataplanePlan> plans) {
        for (DataplanePlan plan : plans) {
            Map<String, WireGuardDevice> devices = new HashMap<>();
            for (WireGuardDevice device : plan.wireGuardDevices()) {
                devices.put(device.name(), device);
            }
            byName.add(devices.isEmpty() ? Map.of() : devices);
        }
    }

    /** The WireGuard device {@code name} of the host, or null when that is no WireGuard device there. */
    public WireGuardDevice device(int host, String name) {
        return byName.get(host).get(name);
    }

    /** The host's device listening on UDP {@code port}, or null. */
    public WireGuardDevice receiver(int host, int port) {
        for (WireGuardDevice device : byName.get(host).values()) {
            if (device.listenPort() == port) {
                return device;
            }
        }
        return null;
    }
}
