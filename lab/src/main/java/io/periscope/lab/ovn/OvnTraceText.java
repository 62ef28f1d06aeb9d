package io.periscope.lab.ovn;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each logical router decided in an {@code ovn-trace} text: the port a packet came in and went
 * out by, the next hop it was given ({@code reg0}), whether a policy or the routing table chose it,
 * and the backends of the load balancer that translated a new connection on the way (in the router
 * or in the switch just before it, where OVN runs a switch's load balancers). ovn-trace prints text
 * only, so this reads as little of it as it can: the {@code ingress(dp=..., inport=...)} and
 * {@code egress(dp=..., outport=...)} headings, the numbered stage lines ({@code 13. lr_in_ip_routing
 * (northd.c:...): MATCH, priority N, uuid U}) and three actions ({@code outport = "P";},
 * {@code reg0 = X;}, {@code ct_lb...(backends=...)}).
 */
public final class OvnTraceText {

    private static final Pattern HEADING = Pattern.compile("^(ingress|egress)\\(dp=\"([^\"]+)\", inport=\"([^\"]+)\"(?:, outport=\"([^\"]+)\")?\\)");
    private static final Pattern STAGE = Pattern.compile("^\\s*\\d+\\. (\\w+) \\([^)]*\\): (.*), priority (\\d+), uuid \\w+");
    private static final Pattern REG0 = Pattern.compile("^\\s*reg0 = ([^;]+);");
    private static final Pattern BACKENDS = Pattern.compile("ct_lb(?:_mark)?\\(backends=([^);]+)");
    /** A router action that rewrites addresses through conntrack: a load balancer, a NAT, or undoing one for a reply. */
    private static final Pattern TRANSLATION = Pattern.compile("\\b(?:ct_lb(?:_mark)?\\(backends|ct_dnat|ct_snat|ct_dnat_in_czone|ct_snat_in_czone)\\b");

    private OvnTraceText() {
    }

    /**
     * One router's decision.
     *
     * @param nexthop   the {@code reg0} the routing stage set: an address, or {@code ip4.dst} for a connected network
     * @param byPolicy  a policy of priority above 0 rerouted it (not the routing table)
     * @param backends  the backends of the load balancer met since the previous router, as OVN lists them
     * @param out       empty when the packet did not leave the router
     * @param translates one of the router's own stages (ingress or egress) rewrites addresses through
     *                  conntrack ({@code ct_lb_mark}, {@code ct_dnat}, {@code ct_snat}): where a probe
     *                  places the change it saw between the packet entering OVN and the packet leaving it
     */
    public record RouterVisit(String router, String in, Optional<String> out, Optional<String> nexthop, boolean byPolicy,
                              Optional<String> backends, boolean translates) {
    }

    public static List<RouterVisit> routerVisits(String trace, Set<String> routers) {
        List<RouterVisit> visits = new ArrayList<>();
        Builder current = null;
        String pendingBackends = null;
        String stage = "";
        int priority = 0;
        String pipeline = "";
        String datapath = "";
        for (String line : trace.lines().toList()) {
            Matcher heading = HEADING.matcher(line);
            if (heading.find()) {
                pipeline = heading.group(1);
                datapath = heading.group(2);
                stage = "";
                if (pipeline.equals("ingress") && routers.contains(datapath)) {
                    if (current != null) {
                        visits.add(current.build());
                    }
                    current = new Builder(datapath, heading.group(3), pendingBackends);
                    pendingBackends = null;
                } else if (pipeline.equals("egress") && current != null && datapath.equals(current.router) && heading.group(4) != null) {
                    current.out = heading.group(4);
                }
                continue;
            }
            Matcher stageLine = STAGE.matcher(line);
            if (stageLine.find()) {
                stage = stageLine.group(1);
                priority = Integer.parseInt(stageLine.group(3));
                continue;
            }
            Matcher backends = BACKENDS.matcher(line);
            if (backends.find() && pipeline.equals("ingress")) {
                if (current != null && datapath.equals(current.router)) {
                    current.backends = backends.group(1);
                } else {
                    pendingBackends = backends.group(1);
                }
                continue;
            }
            if (current != null && datapath.equals(current.router) && TRANSLATION.matcher(line).find()) {
                current.translates = true;
            }
            if (current == null || !pipeline.equals("ingress") || !datapath.equals(current.router)) {
                continue;
            }
            boolean deciding = stage.equals("lr_in_ip_routing") || stage.equals("lr_in_policy") && priority > 0;
            Matcher reg0 = REG0.matcher(line);
            if (deciding && reg0.find()) {
                current.nexthop = reg0.group(1).strip();
                current.byPolicy = stage.equals("lr_in_policy");
            }
        }
        if (current != null) {
            visits.add(current.build());
        }
        return visits;
    }

    private static final class Builder {
        final String router;
        final String in;
        String out;
        String nexthop;
        boolean byPolicy;
        String backends;
        boolean translates;

        Builder(String router, String in, String backends) {
            this.router = router;
            this.in = in;
            this.backends = backends;
        }

        RouterVisit build() {
            return new RouterVisit(router, in, Optional.ofNullable(out), Optional.ofNullable(nexthop), byPolicy, Optional.ofNullable(backends), translates || backends != null);
        }
    }
}
