package io.periscope.lab.probe;

import io.periscope.lab.dns.ClusterDns;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.model.net.Ipv4Address;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A name looked up for real inside a lab host's namespace, the way its programs would. In a pod,
 * glibc's resolver ({@code getent ahostsv4}), run by {@code ip netns exec}, which bind-mounts the pod's
 * {@code /etc/netns/NS/resolv.conf}: the question goes to the cluster's DNS Service address and
 * through the node's DNAT to the server, over the lab's own links. On a node (or for a host-network
 * pod, which is its node's namespace) {@code dig} asks the DNS Service address directly, as a
 * host-network pod with {@code dnsPolicy: ClusterFirstWithHostNet} would; the node keeps the
 * machine's own resolver configuration.
 */
public final class NameLookup {

    /** getent's exit status when the name has no address. */
    static final int GETENT_NOT_FOUND = 2;

    private final CommandRunner runner;

    public NameLookup(CommandRunner runner) {
        this.runner = runner;
    }

    /**
     * @return the addresses in the order the client got them; empty when it got none
     * @throws IllegalStateException when the lookup itself could not run
     */
    public List<Ipv4Address> addresses(HostNamespace host, Optional<ClusterDns> dns, String name) {
        if (!host.isNode()) {
            CommandResult result = runner.execute(Command.of("getent", "ahostsv4", name).inNamespace(host.namespace()));
            if (result.exitCode() == GETENT_NOT_FOUND) {
                return List.of();
            }
            if (!result.succeeded()) {
                throw new IllegalStateException("getent ahostsv4 " + name + " in " + host.namespace() + " failed (exit " + result.exitCode()
                        + "): " + result.stderr().strip());
            }
            // One line per address and socket type; the STREAM lines keep glibc's order.
            return parse(result.stdout().lines().filter(l -> l.contains("STREAM")).map(l -> l.split("\\s+")[0]).toList());
        }
        ClusterDns server = dns.orElseThrow(() -> new IllegalStateException("cluster " + host.host().cluster() + " has no DNS Service in the lab"));
        CommandResult result = runner.execute(Command.of("dig", "+short", "+time=1", "+tries=2", "@" + server.serviceAddress(), name, "A")
                .inNamespace(host.namespace()));
        if (!result.succeeded()) {
            throw new IllegalStateException("dig @" + server.serviceAddress() + " " + name + " in " + host.namespace() + " failed (exit "
                    + result.exitCode() + "): " + (result.stdout() + result.stderr()).strip());
        }
        return parse(result.stdout().lines().map(String::strip).filter(l -> l.matches("\\d+\\.\\d+\\.\\d+\\.\\d+")).toList());
    }

    private static List<Ipv4Address> parse(List<String> texts) {
        List<Ipv4Address> addresses = new ArrayList<>();
        for (String text : texts) {
            Ipv4Address address = Ipv4Address.parse(text);
            if (!addresses.contains(address)) {
                addresses.add(address);
            }
        }
        return List.copyOf(addresses);
    }
}
