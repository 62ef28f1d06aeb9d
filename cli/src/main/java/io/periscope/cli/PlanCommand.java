package io.periscope.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.periscope.dataplane.diff.DataplaneDiff;
import io.periscope.dataplane.ipsec.IpsecConfRenderer;
import io.periscope.dataplane.wireguard.WireGuardConfRenderer;
import io.periscope.dataplane.reconcile.ChangeCommands;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.dataplane.ovn.NorthboundFromScratch;
import io.periscope.plan.ovn.BridgeSyntax;
import io.periscope.planner.Planner;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope plan}: what the agents would program on each node, in the kernel tools' own input formats. */
@Command(name = "plan",
        description = "Print what the agents would program on each node (or one): iptables-restore and ipset restore input, "
                + "routes, rules, nexthops, VXLAN devices and FDB entries; on gateways the WireGuard device with its peers and "
                + "the Libreswan connections (keys by name only, never key material); for an OVN-Kubernetes cluster also its "
                + "OVN logical network as ovn-nbctl commands.")
public final class PlanCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--node", paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "print only this node's plan")
    private NodeReference node;

    @Option(names = "--json", description = "print the plans as JSON instead of text")
    private boolean json;

    /**
     * One node's program: the commands an agent on a fresh node runs, in order, with their input, and
     * a gateway's encrypted cables, which the agents' diff does not carry: the WireGuard device and
     * the Libreswan connections are configured through their own tools (wg, pluto), with keys.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record NodeProgram(String node, String role, List<ProgramStep> commands, List<WireGuardProgram> wireGuard,
                       List<LibreswanProgram> libreswan) {
    }

    /** A WireGuard device; every key by the id the plan gives it, as the lab's or an agent's key store knows it. */
    record WireGuardProgram(String device, int listenPort, int mtu, String privateKeyId, List<WireGuardPeerProgram> peers, String conf) {
        static WireGuardProgram of(WireGuardDevice d) {
            return new WireGuardProgram(d.name(), d.listenPort(), d.mtu(), d.privateKey(), d.peers().stream().map(WireGuardPeerProgram::of).toList(),
                    WireGuardConfRenderer.render(d, WireGuardConfRenderer.WireGuardKeys.NAMED));
        }
    }

    record WireGuardPeerProgram(String remote, String publicKeyId, String presharedKeyId, String endpoint, List<String> allowedIps,
                                int persistentKeepaliveSeconds) {
        static WireGuardPeerProgram of(WireGuardPeer p) {
            return new WireGuardPeerProgram(p.remote(), p.publicKey(), p.presharedKey(), p.endpoint(),
                    p.allowedIps().stream().map(Object::toString).toList(), p.persistentKeepaliveSeconds());
        }
    }

    /**
     * One Libreswan connection; the pre-shared key by its id; {@code forceEncapsulation} is whack's
     * {@code --forceencaps} and {@code encapsulation} says why ESP goes inside UDP or as IP protocol 50;
     * proposals only where a connection policy set them.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record LibreswanProgram(String name, String left, String leftId, String leftSubnet, int leftIkePort, String right, String rightId,
                            String rightSubnet, int rightIkePort, String pskId, boolean forceEncapsulation, String encapsulation,
                            String ike, String esp) {
        static LibreswanProgram of(IpsecConnection c) {
            return new LibreswanProgram(c.name(), c.left().toString(), c.leftId().toString(), c.leftSubnet().toString(), c.leftIkePort(),
                    c.right().toString(), c.rightId().toString(), c.rightSubnet().toString(), c.rightIkePort(), c.psk(),
                    c.forceEncapsulation(), c.encapsulation().why(), c.ike().orElse(null), c.esp().orElse(null));
        }
    }

    record ProgramStep(String command, String input) {
    }

    /**
     * An OVN-Kubernetes cluster's logical network: the arguments of the one {@code ovn-nbctl} run
     * (one transaction) that builds it in an empty northbound database, and the nodes' br-submariner.
     */
    record OvnProgram(String cluster, List<String> nbctl, List<String> bridges) {
    }

    @Override
    public Integer call() throws TopologyException, JsonProcessingException {
        ClusterSet set = topology.load();
        if (node != null) {
            try {
                node.requireIn(set);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--node " + node + ": " + e.getMessage());
            }
        }
        ClusterSetPlan plan = Planner.plan(set);
        List<NodeProgram> programs = new ArrayList<>();
        Map<NodeProgram, DataplanePlan> planOf = new java.util.IdentityHashMap<>();
        for (HostPlan host : plan.hosts().values()) {
            if (host.role() == HostPlan.HostRole.POD
                    || node != null && !(host.id().cluster().equals(node.cluster()) && host.id().name().equals(node.node()))) {
                continue;
            }
            // What an agent runs on a node that has none of Periscope's state yet: the diff from
            // nothing to the plan, rendered by the agents' own renderers.
            List<io.periscope.dataplane.command.Command> commands = ChangeCommands.of(DataplaneDiff.between(DataplanePlan.EMPTY, host.submariner()), Map.of());
            programs.add(new NodeProgram(host.id().toString(), host.role().name().toLowerCase(Locale.ROOT),
                    commands.stream().map(c -> new ProgramStep(String.join(" ", c.argv()), c.stdin())).toList(),
                    host.submariner().wireGuardDevices().stream().map(WireGuardProgram::of).toList(),
                    host.submariner().ipsecConnections().stream().map(LibreswanProgram::of).toList()));
            planOf.put(programs.getLast(), host.submariner());
        }
        // OVN-Kubernetes clusters (in scope): their logical network, as the agents' own northbound
        // transaction from an empty database (OVN-Kubernetes' part and Submariner's together).
        List<OvnProgram> ovn = plan.ovn().stream().filter(t -> node == null || t.cluster().equals(node.cluster()))
                .map(t -> new OvnProgram(t.cluster(), NorthboundFromScratch.arguments(t), BridgeSyntax.commands(t))).toList();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> document = new java.util.LinkedHashMap<>();
            document.put("nodes", programs);
            if (!ovn.isEmpty()) {
                document.put("ovn", ovn);
            }
            out.println(IndentedJson.write(document));
        } else {
            for (NodeProgram program : programs) {
                out.println("=== " + program.node() + " (" + program.role() + ")");
                for (ProgramStep step : program.commands()) {
                    out.println("# " + step.command());
                    if (!step.input().isEmpty()) {
                        out.print(step.input().endsWith("\n") ? step.input() : step.input() + "\n");
                    }
                }
                printCables(out, planOf.get(program));
                out.println();
            }
            for (OvnProgram program : ovn) {
                out.println("=== " + program.cluster() + " OVN northbound database (one ovn-nbctl transaction)");
                out.println(shellLines(program.nbctl()));
                // Upstream's design (behaviour: upstream) has no br-submariner.
                if (!program.bridges().isEmpty()) {
                    out.println("# br-submariner on the nodes");
                    program.bridges().forEach(out::println);
                }
                out.println();
            }
        }
        out.flush();
        return ExitStatus.OK;
    }

    /**
     * A gateway's WireGuard device as {@code wg setconf} input and its Libreswan connections as
     * {@code ipsec.conf}, keys by name: the agent (or the lab) generates them and never prints them.
     */
    private static void printCables(PrintWriter out, DataplanePlan plan) {
        for (WireGuardDevice device : plan.wireGuardDevices()) {
            out.println("# ip link add " + device.name() + " type wireguard");
            out.println("# wg setconf " + device.name() + " (keys by name; the agent generates them and never prints them)");
            out.print(WireGuardConfRenderer.render(device, WireGuardConfRenderer.WireGuardKeys.NAMED));
            out.println("# ip link set " + device.name() + " mtu " + device.mtu() + " up");
        }
        if (!plan.ipsecConnections().isEmpty()) {
            out.println("# ipsec.conf (Libreswan; pluto gets the same through whack)");
            out.print(IpsecConfRenderer.render(plan.ipsecConnections()));
            out.println("# ipsec.secrets: %any %any : PSK <pre-shared key "
                    + String.join(", ", plan.ipsecConnections().stream().map(IpsecConnection::psk).distinct().toList()) + ">");
        }
    }

    /** {@code ovn-nbctl} and its arguments for a shell, one {@code --} command per line. */
    private static String shellLines(List<String> arguments) {
        StringBuilder text = new StringBuilder("ovn-nbctl");
        for (String argument : arguments) {
            text.append(argument.equals("--") ? " \\\n  --" : " " + shellQuoted(argument));
        }
        return text.toString();
    }

    private static String shellQuoted(String text) {
        return text.matches("[A-Za-z0-9_./:=@,+-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }
}
