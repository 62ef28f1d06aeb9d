package io.periscope.lab.supervisor;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.periscope.lab.dns.ClusterDnsStatus;
import io.periscope.lab.link.DelayLineStatus;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the supervisor last said about itself and each node's agent.
 *
 * @param pid     the supervisor's pid (so a reader knows the status is of the supervisor it started)
 * @param updated when it was written (ISO-8601)
 * @param nodes   each node's agent, by {@code cluster/node}
 * @param dns     each cluster's DNS server, by cluster
 * @param revision the revision of the topology it plans and answers from ({@link SupervisorFiles#revision})
 * @param links   the links' rates, queues, loss and delay as it keeps them
 * @param delayLines each delay line it runs, by {@code namespace/queue}; left out of the file when there is none
 * @param northbound each OVN-Kubernetes cluster's network plugin syncer, by cluster; left out when there is none
 */
public record SupervisorStatus(long pid, String updated, Map<String, NodeAgentStatus> nodes, Map<String, ClusterDnsStatus> dns,
                               String revision, LinkStatus links,
                               @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, DelayLineStatus> delayLines,
                               @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, NorthboundStatus> northbound) {

    public SupervisorStatus {
        // A status of a lab without OVN-Kubernetes clusters, or written before the lab had them, has none.
        northbound = northbound == null ? Map.of() : new TreeMap<>(northbound);
        revision = revision == null ? "" : revision;
        // A status written before the supervisor ran delay lines, or by one that runs none, has none.
        delayLines = delayLines == null ? Map.of() : new TreeMap<>(delayLines);
        nodes = new TreeMap<>(nodes);
        // A status written before the supervisor ran DNS servers has none.
        dns = dns == null ? Map.of() : new TreeMap<>(dns);
        // A status written before links were shaped has none.
        links = links == null ? LinkStatus.NONE : links;
    }

    public SupervisorStatus(long pid, String updated, Map<String, NodeAgentStatus> nodes, Map<String, ClusterDnsStatus> dns, String revision) {
        this(pid, updated, nodes, dns, revision, LinkStatus.NONE, Map.of());
    }

    public SupervisorStatus(long pid, String updated, Map<String, NodeAgentStatus> nodes, Map<String, ClusterDnsStatus> dns, String revision,
                            LinkStatus links, Map<String, DelayLineStatus> delayLines) {
        this(pid, updated, nodes, dns, revision, links, delayLines, Map.of());
    }

    /**
     * @param passes    passes that reached the database so far
     * @param chassis   the chassis its last successful pass bound {@code submariner_router} to ({@code none} under
     *                  upstream's design), empty before
     * @param converged the revision of the topology whose plan the database was last brought to, empty before
     * @param lastError the last pass's error, empty when it succeeded
     */
    public record NorthboundStatus(long passes, String chassis, String converged, String lastError) {

        public NorthboundStatus {
            chassis = chassis == null ? "" : chassis;
            converged = converged == null ? "" : converged;
            lastError = lastError == null ? "" : lastError;
        }
    }

    /**
     * @param passes    link reconciler passes so far
     * @param converged the revision of the topology whose links were last found in place, empty before; what
     *                  {@code lab apply} waits for
     * @param summary   what the links are, as {@code lab up} says it
     * @param lastError the last pass's error, empty when it succeeded
     */
    public record LinkStatus(long passes, String converged, String summary, String lastError) {

        public static final LinkStatus NONE = new LinkStatus(0, "", "", "");

        public LinkStatus {
            converged = converged == null ? "" : converged;
            summary = summary == null ? "" : summary;
            lastError = lastError == null ? "" : lastError;
        }
    }

    /**
     * @param running  whether the node's agent runs (false while {@code lab fail} stopped it)
     * @param down     the gateways it considers down (and has withdrawn from its routes)
     * @param passes   reconcile passes so far
     * @param lastError the last pass's error, empty when it succeeded
     * @param leading  whether it holds its single-active cluster's gateway lease (false for nodes that stand for none)
     * @param converged the revision of the topology ({@link SupervisorFiles#revision}) whose plan its node was last
     *                 found to match after a pass, empty before; what {@code lab apply} waits for
     * @param convergedHolders the lease holders (cluster to node) of that plan: a lease changing hands changes the
     *                 plan but not the revision, so this is what says the node has programmed a takeover
     */
    public record NodeAgentStatus(boolean running, List<String> down, long passes, String lastError, boolean leading, String converged,
                                  Map<String, String> convergedHolders) {

        public NodeAgentStatus {
            down = List.copyOf(down);
            convergedHolders = convergedHolders == null ? Map.of() : Map.copyOf(convergedHolders);
            lastError = lastError == null ? "" : lastError;
            // A status written before lab apply existed has none.
            converged = converged == null ? "" : converged;
        }
    }
}
