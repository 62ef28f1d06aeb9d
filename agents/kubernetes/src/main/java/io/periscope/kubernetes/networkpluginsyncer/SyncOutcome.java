package io.periscope.kubernetes.networkpluginsyncer;

import io.periscope.dataplane.ovn.NbChange;
import io.periscope.dataplane.ovn.NbRow;
import io.periscope.model.topology.Cni;

import java.util.List;
import java.util.stream.Collectors;

/** What one pass of the network plugin syncer found and did; its {@link #describe()} is the log line. */
public sealed interface SyncOutcome {

    String describe();

    /** Whether a pass should come again soon rather than at the next resync. */
    default boolean retrySoon() {
        return false;
    }

    /** This replica does not hold the lease (yet): the holder, if any, programs the database. */
    record Standby(java.util.Optional<String> holder) implements SyncOutcome {
        @Override
        public String describe() {
            return "not leading lease " + NetworkPluginSyncerSettings.LEASE + holder.map(h -> " (held by " + h + ")").orElse("")
                    + "; programming nothing until it does";
        }
    }

    record NoClusterObject(String clusterId, String namespace) implements SyncOutcome {
        @Override
        public String describe() {
            return "no Cluster object for cluster " + clusterId + " in namespace " + namespace + " yet; nothing to program";
        }
    }

    /** The syncer only has work on OVN-Kubernetes clusters; the Cluster object's {@code cni} says which this is. */
    record NotOvnKubernetes(String clusterId, Cni cni) implements SyncOutcome {
        @Override
        public String describe() {
            return "cluster " + clusterId + " runs " + cni.yamlName() + ", not ovn-kubernetes (the Cluster object's cni): nothing to program";
        }
    }

    record NoGateway(String clusterId) implements SyncOutcome {
        @Override
        public String describe() {
            return "cluster " + clusterId + " has no gateway node (label submariner.io/gateway=true) yet: submariner_router has no chassis to be pinned to";
        }
    }

    /** The planner refused the model built from the live objects. */
    record CannotPlan(String reason) implements SyncOutcome {
        @Override
        public String describe() {
            return "cannot plan cluster's OVN topology: " + reason;
        }
    }

    /** OVN-Kubernetes has not built the rows Submariner's hang on; the programmer changed nothing. */
    record WaitingForOvnKubernetes(String message) implements SyncOutcome {
        @Override
        public String describe() {
            return message;
        }

        @Override
        public boolean retrySoon() {
            return true;
        }
    }

    /** Reading or writing the northbound database failed (socket missing, ovn-nbctl refused the transaction). */
    record DatabaseFailed(String message) implements SyncOutcome {
        @Override
        public String describe() {
            return "the OVN northbound database did not take the plan: " + message;
        }

        @Override
        public boolean retrySoon() {
            return true;
        }
    }

    /** The database held something else; these changes brought it to the plan in one transaction. */
    record Programmed(String chassis, List<NbChange> changes) implements SyncOutcome {
        public Programmed {
            changes = List.copyOf(changes);
        }

        @Override
        public String describe() {
            return "programmed " + changes.size() + " change(s), submariner_router on chassis " + chassis + ": "
                    + changes.stream().map(SyncOutcome::describe).collect(Collectors.joining("; "));
        }
    }

    record UpToDate(String chassis) implements SyncOutcome {
        @Override
        public String describe() {
            return "the OVN northbound database holds Submariner's part of the plan (submariner_router on chassis " + chassis + ")";
        }
    }

    /** One change as an operator would read it in the log. */
    static String describe(NbChange change) {
        String verb = switch (change) {
            case NbChange.Create c -> "add";
            case NbChange.Update u -> "update";
            case NbChange.Delete d -> "remove";
        };
        return verb + " " + describe(change.row());
    }

    private static String describe(NbRow row) {
        return switch (row) {
            case NbRow.PolicyRow p -> "policy on " + p.router() + " " + p.priority() + " " + p.match() + " " + p.action()
                    + (p.nexthops().isEmpty() ? "" : " " + String.join(",", p.nexthops()));
            case NbRow.RouteRow r -> "route on " + r.router() + " " + r.prefix() + " via " + r.nexthop() + r.outputPort().map(o -> " port " + o).orElse("");
            case NbRow.RouterRow r -> "router " + r.name() + r.chassis().map(c -> " chassis=" + c).orElse("");
            case NbRow.RouterPortRow p -> "router port " + p.router() + "/" + p.name() + " " + String.join(",", p.networks());
            case NbRow.SwitchRow s -> "switch " + s.name();
            case NbRow.SwitchPortRow p -> "switch port " + p.logicalSwitch() + "/" + p.name();
            case NbRow.LoadBalancerRow lb -> "load balancer " + lb.name();
            case NbRow.LoadBalancerGroupRow g -> "load balancer group " + g.name();
        };
    }
}
