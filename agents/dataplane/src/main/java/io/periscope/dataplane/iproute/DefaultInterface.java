package io.periscope.dataplane.iproute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.model.topology.NodeLink;

import java.io.IOException;

/**
 * The node's default interface and its MTU, found as upstream's route agent finds them: the device of
 * the IPv4 default route (the first one, which the kernel uses), and that device's MTU. A real node's
 * agent plans with them instead of the lab's {@code eth0}/{@code wan0} and MTU 1500, so VXLAN devices
 * get the interface's MTU minus 50.
 */
public record DefaultInterface(String name, int mtu) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code ip -j -4 route show default}: the main table's default routes. */
    public static final Command ROUTES = Command.of("ip", "-j", "-4", "route", "show", "default");

    public static Command link(String device) {
        return Command.of("ip", "-j", "link", "show", "dev", device);
    }

    /** The file's words for it: what the planner takes from a node's {@code interface} and {@code mtu}. */
    public NodeLink link() {
        return NodeLink.of(name, mtu);
    }

    /**
     * Asks the kernel.
     *
     * @throws DiscoveryException when the node has no IPv4 default route, or its device cannot be read
     */
    public static DefaultInterface discover(CommandRunner runner) {
        String device;
        try {
            device = deviceOfDefaultRoute(runner.run(ROUTES).stdout());
        } catch (CommandFailedException e) {
            throw new DiscoveryException("could not read the node's routes (" + e.getMessage() + ")");
        }
        try {
            return new DefaultInterface(device, mtuOf(runner.run(link(device)).stdout(), device));
        } catch (CommandFailedException e) {
            throw new DiscoveryException("could not read the default interface " + device + " (" + e.getMessage() + ")");
        }
    }

    /** The device of the first default route in {@code ip -j -4 route show default}'s output (the first nexthop's, for a multipath one). */
    static String deviceOfDefaultRoute(String json) {
        JsonNode routes = parse(json, "routes");
        for (JsonNode route : routes) {
            if (route.hasNonNull("dev")) {
                return route.get("dev").asText();
            }
            for (JsonNode nexthop : route.path("nexthops")) {
                if (nexthop.hasNonNull("dev")) {
                    return nexthop.get("dev").asText();
                }
            }
        }
        throw new DiscoveryException("the node has no IPv4 default route, so its default interface is unknown; "
                + "give the node a default route (upstream needs one too)");
    }

    /** The MTU in {@code ip -j link show dev DEVICE}'s output. */
    static int mtuOf(String json, String device) {
        JsonNode links = parse(json, "link " + device);
        if (links.isEmpty() || !links.get(0).path("mtu").canConvertToInt()) {
            throw new DiscoveryException("ip printed no MTU for " + device);
        }
        return links.get(0).get("mtu").asInt();
    }

    private static JsonNode parse(String json, String what) {
        try {
            JsonNode node = JSON.readTree(json.isBlank() ? "[]" : json);
            if (!node.isArray()) {
                throw new DiscoveryException("ip printed no list of " + what + ": " + json.strip());
            }
            return node;
        } catch (IOException e) {
            throw new DiscoveryException("ip printed something other than JSON for " + what + ": " + e.getMessage());
        }
    }

    /** The default interface could not be found; the message says why. */
    public static final class DiscoveryException extends RuntimeException {
        public DiscoveryException(String message) {
            super(message);
        }
    }
}
