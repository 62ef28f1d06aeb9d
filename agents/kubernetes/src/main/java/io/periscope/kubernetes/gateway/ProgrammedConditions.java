package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.StatusGlobalAddresses;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.periscope.model.globalnet.ClusterGlobalEgressIP.DEFAULT_NAME;

/**
 * Seed 004: the gateway pods program Globalnet's datapath from the objects the controller allocated,
 * "then update the status of those objects to let the users know the datapath rules have been
 * properly implemented". Each gateway keeps one condition of its own on every object whose rules it
 * programs, of type {@code <node>/DatapathProgrammed} (several gateways program the same
 * GlobalEgressIP), saying which addresses its node's rules use. Pure: the agent writes the result.
 *
 * <p>An active gateway programs its ClusterGlobalEgressIP ({@code cluster-egress.submariner.io}, or
 * with multiple active gateways {@code <node>-cluster-egress.submariner.io}), every GlobalEgressIP and
 * every GlobalIngressIP whose allocation succeeded. A gateway that is not active carries no condition.
 */
public final class ProgrammedConditions {

    public static final String SUFFIX = "/DatapathProgrammed";
    public static final String PROGRAMMED = "Programmed";
    public static final String FAILED = "ProgrammingFailed";

    /** One object's conditions as this gateway wants them: its own condition set, replaced or removed. */
    public record Edit(String kind, String namespace, String name, String uid, Optional<Condition> condition) {
    }

    private ProgrammedConditions() {
    }

    public static String type(String node) {
        return node + SUFFIX;
    }

    /**
     * @param programmed empty when this node is not an active gateway; otherwise empty failure text when the
     *                   reconcile succeeded, or what went wrong
     */
    public static List<Edit> edits(LiveObjects live, String node, boolean multiActive, Optional<Optional<String>> programmed, Instant now) {
        List<Edit> edits = new ArrayList<>();
        String ownEgress = multiActive ? node + "-" + DEFAULT_NAME : DEFAULT_NAME;
        for (ClusterGlobalEgressIPResource object : live.clusterGlobalEgressIPs()) {
            boolean mine = object.getMetadata().getName().equals(ownEgress) && object.getStatus() != null
                    && StatusGlobalAddresses.allocated(object.getStatus().conditions());
            edit(object, object.getStatus() == null ? List.of() : object.getStatus().conditions(),
                    object.getStatus() == null ? List.of() : object.getStatus().allocatedIPs(), mine, node, programmed, now).ifPresent(edits::add);
        }
        for (GlobalEgressIPResource object : live.globalEgressIPs()) {
            boolean used = object.getStatus() != null && StatusGlobalAddresses.allocated(object.getStatus().conditions());
            edit(object, object.getStatus() == null ? List.of() : object.getStatus().conditions(),
                    object.getStatus() == null ? List.of() : object.getStatus().allocatedIPs(), used, node, programmed, now).ifPresent(edits::add);
        }
        for (GlobalIngressIPResource object : live.globalIngressIPs()) {
            boolean used = object.getStatus() != null && StatusGlobalAddresses.allocated(object.getStatus().conditions())
                    && object.getStatus().allocatedIP() != null;
            edit(object, object.getStatus() == null ? List.of() : object.getStatus().conditions(),
                    used ? List.of(object.getStatus().allocatedIP()) : List.of(), used, node, programmed, now).ifPresent(edits::add);
        }
        return edits;
    }

    private static Optional<Edit> edit(HasMetadata object, List<Condition> conditions, List<String> addresses, boolean used, String node,
                                       Optional<Optional<String>> programmed, Instant now) {
        String type = type(node);
        Optional<Condition> current = conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
        Optional<Condition> wanted = Optional.empty();
        if (used && programmed.isPresent()) {
            Optional<String> failure = programmed.get();
            String range = addresses.size() == 1 ? addresses.getFirst() : addresses.getFirst() + "-" + addresses.getLast();
            wanted = Optional.of(new ConditionBuilder().withType(type).withStatus(failure.isEmpty() ? "True" : "False")
                    .withReason(failure.isEmpty() ? PROGRAMMED : FAILED)
                    .withMessage(failure.map(f -> "gateway " + node + " could not program the rules for " + range + ": " + f)
                            .orElse("gateway " + node + " programmed the rules for " + range))
                    .withLastTransitionTime(now.truncatedTo(ChronoUnit.SECONDS).toString()).build());
        }
        if (current.isEmpty() && wanted.isEmpty()) {
            return Optional.empty();
        }
        if (current.isPresent() && wanted.isPresent() && same(current.get(), wanted.get())) {
            return Optional.empty();
        }
        String namespace = object.getMetadata().getNamespace();
        return Optional.of(new Edit(object.getKind(), namespace == null ? "" : namespace, object.getMetadata().getName(),
                object.getMetadata().getUid() == null ? "" : object.getMetadata().getUid(), wanted));
    }

    private static boolean same(Condition a, Condition b) {
        return a.getStatus().equals(b.getStatus()) && a.getReason().equals(b.getReason()) && a.getMessage().equals(b.getMessage());
    }

    /** {@code conditions} with this gateway's condition replaced by {@code wanted} (or removed). */
    public static List<Condition> apply(List<Condition> conditions, String node, Optional<Condition> wanted) {
        List<Condition> result = new ArrayList<>();
        String type = type(node);
        for (Condition condition : conditions) {
            if (!type.equals(condition.getType())) {
                result.add(condition);
            }
        }
        wanted.ifPresent(result::add);
        return result;
    }
}
