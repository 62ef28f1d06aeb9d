package io.periscope.kubernetes.leaderelection;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.dataplane.election.LeaseRecord;
import io.periscope.dataplane.election.LeaseStore;

import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * A {@code coordination.k8s.io/v1} Lease as a {@link LeaseStore}, written as client-go writes it
 * (holder, acquire and renew times, duration in seconds, transitions), so that upstream's tools and
 * {@code kubectl get lease} read it as theirs. The compare and swap is the API server's: an update
 * carries the resourceVersion read and is refused with 409 when the Lease changed since; a create
 * is refused with 409 when it exists.
 */
public final class KubernetesLeaseStore implements LeaseStore {

    private final KubernetesClient client;
    private final String namespace;
    private final String name;

    public KubernetesLeaseStore(KubernetesClient client, String namespace, String name) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    @Override
    public Optional<Versioned> read() {
        Lease lease;
        try {
            lease = client.resources(Lease.class).inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new Unreachable("cannot read Lease " + namespace + "/" + name + ": " + e.getMessage(), e);
        }
        if (lease == null) {
            return Optional.empty();
        }
        LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
        Instant renewed = instant(spec.getRenewTime());
        LeaseRecord record = new LeaseRecord(spec.getHolderIdentity(), instant(spec.getAcquireTime()), renewed,
                Duration.ofSeconds(spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds()),
                spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions());
        return Optional.of(new Versioned(record, lease.getMetadata().getResourceVersion()));
    }

    @Override
    public Optional<String> write(Optional<String> expectedVersion, LeaseRecord record) {
        Lease lease = new Lease();
        lease.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withResourceVersion(expectedVersion.orElse(null)).build());
        LeaseSpec spec = new LeaseSpec();
        spec.setHolderIdentity(record.holder());
        spec.setAcquireTime(time(record.acquired()));
        spec.setRenewTime(time(record.renewed()));
        // Whole seconds, rounded up: readers that judge freshness by the written duration
        // (LiveObjectsReader.activeGateways, kubectl) must not see a lease expire before its holder does.
        spec.setLeaseDurationSeconds((int) Math.max(1, (record.duration().toMillis() + 999) / 1000));
        spec.setLeaseTransitions(record.transitions());
        lease.setSpec(spec);
        try {
            Lease written = expectedVersion.isEmpty()
                    ? client.resources(Lease.class).inNamespace(namespace).resource(lease).create()
                    : client.resources(Lease.class).inNamespace(namespace).resource(lease).update();
            return Optional.of(written.getMetadata().getResourceVersion());
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return Optional.empty();
            }
            throw new Unreachable("cannot write Lease " + namespace + "/" + name + ": " + e.getMessage(), e);
        }
    }

    private static Instant instant(ZonedDateTime time) {
        return time == null ? Instant.EPOCH : time.toInstant();
    }

    private static ZonedDateTime time(Instant instant) {
        return instant.atZone(ZoneOffset.UTC);
    }
}
