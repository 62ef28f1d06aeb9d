package io.periscope.kubernetes.leaderelection;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.election.LeaderElection;
import io.periscope.dataplane.election.LeaseCandidate;
import io.periscope.dataplane.election.LeaseTimings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;

/**
 * Candidacy for one Lease for as long as it is open: the project's {@link LeaderElection} (the same
 * logic the lab runs over its lease files) over the Lease object ({@link KubernetesLeaseStore}). A
 * gateway that lost its lease (say, to a network partition) stands again at its next retry. On
 * close the lease is released at once, so the next candidate takes over within a retry period
 * instead of a lease duration.
 *
 * <p>{@link LeaseCandidate.Leadership#started()} and {@link LeaseCandidate.Leadership#stopped()} are called
 * from the election's thread, alternately and at most once per term; they must return quickly.
 */
public final class LeaseElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);

    private final String leaseName;
    private final LeaseCandidate candidate;

    public LeaseElection(KubernetesClient client, String namespace, String leaseName, String identity, LeaseTimings timings,
                         LeaseCandidate.Leadership leadership) {
        this.leaseName = leaseName;
        this.candidate = new LeaseCandidate(namespace + "/" + leaseName, new LeaderElection(identity, timings),
                new KubernetesLeaseStore(client, namespace, leaseName), Clock.systemUTC(), leadership, LOG::info);
    }

    public String leaseName() {
        return leaseName;
    }

    public LeaseElection start() {
        candidate.start();
        return this;
    }

    public boolean leading() {
        return candidate.leading();
    }

    /** The holder as last observed, if any. */
    public Optional<String> leader() {
        return candidate.holder();
    }

    /** Ends the candidacy; a leader releases the lease (and is told it stopped leading) before this returns. */
    @Override
    public void close() {
        candidate.close();
    }
}
