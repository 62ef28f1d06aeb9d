package io.periscope.cli;

import picocli.CommandLine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The "Exit codes" section of each command's help, saying what each code means for that command. The
 * root's list would otherwise be inherited everywhere, and promise an exit 1 "a flow's expectation
 * failed" from commands (plan, lab up, snapshot) that never compare anything. Codes other than 0 to 3
 * that another part of the tree adds (an interrupt's, say) are kept after these.
 */
final class ExitCodeHelp {

    private static final String BAD_INPUT = "a bad topology file or bad arguments; the message names the file and the place";
    private static final String NO_LAB = "no lab of the file is up (or another file, or this one before an edit, built it)";
    private static final String INTERNAL = "an internal error in periscope (rerun with --debug for the stack trace)";

    /** The codes this class words per command; any other (an interrupt's, say) is kept as the tree declares it. */
    private static final java.util.Set<String> OWN_CODES = java.util.Set.of("0", "1", "2", "3");

    private ExitCodeHelp() {
    }

    static void apply(CommandLine root) {
        apply(root, List.of());
    }

    private static void apply(CommandLine command, List<String> path) {
        Map<String, String> own = meanings(String.join(" ", path));
        if (!own.isEmpty()) {
            Map<String, String> list = new LinkedHashMap<>(own);
            command.getCommandSpec().usageMessage().exitCodeList().forEach((code, meaning) -> {
                if (!OWN_CODES.contains(code.trim()) && !own.containsKey(code.trim())) {
                    list.put(code, meaning);
                }
            });
            command.getCommandSpec().usageMessage().exitCodeList(list);
        }
        command.getSubcommands().forEach((name, sub) -> {
            List<String> subPath = new java.util.ArrayList<>(path);
            subPath.add(name);
            apply(sub, subPath);
        });
    }

    /** Code to meaning for the command at {@code path} ("" for the root, "lab probe", ...). */
    static Map<String, String> meanings(String path) {
        Map<String, String> codes = new LinkedHashMap<>();
        switch (path) {
            case "" -> {
                codes.put("0", "success");
                codes.put("1", "check: a flow's expect did not hold, or a Globalnet object got no addresses;"
                        + " lab probe, lab bench: real packets disagreed with the simulation");
            }
            case "trace" -> codes.put("0", "the flows were traced, whatever their expect says (check compares them with it)");
            case "plan" -> codes.put("0", "the plans were printed");
            case "check" -> {
                codes.put("0", "every flow's expect holds and every Globalnet object got its addresses");
                codes.put("1", "a flow's expect did not hold, or a Globalnet object got no addresses (IPPoolAllocationFailed)");
            }
            case "lab" -> codes.put("0", "success; only 'lab probe' and 'lab bench' exit 1, when real packets disagree with the simulation");
            case "lab up" -> codes.put("0", "the lab is up and every node has converged");
            case "lab apply" -> codes.put("0", "the running lab took the edited file and every running node has converged"
                    + " (or nothing the lab runs changed)");
            case "lab down" -> codes.put("0", "the lab is gone (or was not up)");
            case "lab probe" -> {
                codes.put("0", "every flow's real packets took paths the simulator gives");
                codes.put("1", "real packets disagreed with the simulation");
            }
            case "dns" -> {
                codes.put("0", "the answer or the zone was printed (NXDOMAIN and NODATA are answers)");
                // --serve ends only by a signal; its 130 is then the usual way to stop, not a failure.
                codes.put("130", "--serve: stopped by Ctrl-C (143: by SIGTERM), the way it ends");
            }
            // It never exits 0: it serves until a signal stops it.
            case "serve" -> codes.put("130", "stopped by Ctrl-C (143: by SIGTERM), the way it ends; it never exits 0");
            case "lab fail" -> codes.put("0", "the node is failed, and what that changed is recorded for 'lab heal'");
            case "lab heal" -> codes.put("0", "the node is healed: what 'lab fail' changed is undone");
            case "lab failover" -> codes.put("0", "the streams were measured and reported, whatever they lost"
                    + " (streams that moved otherwise than predicted are listed in the report)");
            case "lab bench" -> {
                codes.put("0", "the flows were measured and every one took a route the simulator predicts for it");
                codes.put("1", "real packets disagreed with the simulation: a flow took gateways the simulator does not predict for it,"
                        + " crossed none, or moved no bytes (the report lists each)");
            }
            case "snapshot" -> codes.put("0", "the topology file was written");
            default -> {
                return codes;
            }
        }
        codes.put("2", switch (path) {
            case "lab up", "lab down" -> BAD_INPUT + "; or not root";
            case "lab probe" -> BAD_INPUT + "; or not root, or no lab of the file is up";
            case "lab fail" -> BAD_INPUT + "; or not root, " + NO_LAB + ", an unknown node, or a node already failed";
            case "lab heal" -> BAD_INPUT + "; or not root, " + NO_LAB + ", an unknown node, or the node is not failed";
            case "lab apply" -> BAD_INPUT + "; or not root, no lab of the file is up (or another file built it), or the edit"
                    + " changes what 'lab up' built (clusters, hosts, addresses, Globalnet, WireGuard devices): the message names it;"
                    + " nothing was changed, run 'lab down' and 'lab up'";
            case "lab failover" -> BAD_INPUT + "; or not root, " + NO_LAB + ", a node already failed, or the file has no UDP flow";
            case "lab bench" -> BAD_INPUT + "; or not root, " + NO_LAB + ", a node failed, or the file has no TCP flow between"
                    + " clusters that the bench can run";
            case "dns" -> BAD_INPUT + "; or a malformed name or one outside clusterset.local, an unknown --from cluster or --type,"
                    + " or a --serve address that cannot be bound";
            case "serve" -> BAD_INPUT + " (a file with mistakes is served, showing them); or a --port or --bind that cannot be listened on";
            case "snapshot" -> "bad arguments, or a kubeconfig or cluster that cannot be read";
            default -> BAD_INPUT;
        });
        codes.put("3", INTERNAL);
        // A code worded for the command (serve's 130) comes after 0 to 3, as the tree's list has it.
        codes.entrySet().stream().filter(e -> !OWN_CODES.contains(e.getKey())).toList().forEach(e -> {
            codes.remove(e.getKey());
            codes.put(e.getKey(), e.getValue());
        });
        return codes;
    }
}
