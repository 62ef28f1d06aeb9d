package io.periscope.kubernetes.globalnet;

import io.periscope.agent.election.LeaseCandidate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.kubernetes.leaderelection.LeaseElection;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.LiveObjectsInformers;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The Globalnet controller: one replica (seed 004 makes it a Deployment so that there is exactly
 * one allocator per cluster), leader-elected on a Lease so that a second replica during a rollout
 * waits. While it leads, it watches the cluster and runs {@link GlobalnetPass}es (or, for a cluster
 * whose Cluster object says {@code globalnet_mode: legacy}, {@link LegacyGlobalnetPass}es); the
 * allocation book lives for one leadership term and starts from the objects' status (legacy: from
 * the {@code submariner.io/globalIp} annotations).
 */
public final class GlobalnetController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GlobalnetController.class);

    private final KubernetesClient client;
    private final GlobalnetSettings settings;
    private final Clock clock;
    private final LeaseElection election;
    private Term term;

    public GlobalnetController(KubernetesClient client, GlobalnetSettings settings, Clock clock) {
        this.client = client;
        this.settings = settings;
        this.clock = clock;
        this.election = new LeaseElection(client, settings.namespace(), GlobalnetSettings.LEASE, settings.identity(), settings.timings(),
                new LeaseCandidate.Leadership() {
                    @Override
                    public void started() {
                        startTerm();
                    }

                    @Override
                    public void stopped() {
                        stopTerm();
                    }
                });
    }

    public GlobalnetController start() {
        election.start();
        return this;
    }

    public boolean leading() {
        return election.leading();
    }

    /** Passes completed in the current term (0 when not leading). */
    public synchronized long passes() {
        return term == null ? 0 : term.loop.passes();
    }

    private synchronized void startTerm() {
        if (term == null) {
            // The informers' initial lists take a while; the elector's thread must not wait for them.
            term = new Term();
            Thread.ofPlatform().daemon().name("globalnet-term-start").start(term::open);
        }
    }

    private void stopTerm() {
        Term ending;
        synchronized (this) {
            ending = term;
            term = null;
        }
        if (ending != null) {
            ending.close();
        }
    }

    /** Stops passes first (so that nothing is written after), then releases the lease. */
    @Override
    public void close() {
        stopTerm();
        election.close();
    }

    /** One leadership term: informers, the allocation book, the pass loop. */
    private final class Term {
        private final LevelLoop loop = new LevelLoop("globalnet-" + settings.clusterId(), this::pass, settings.resync(), Duration.ofSeconds(1));
        private LiveObjectsInformers informers;
        private AllocationBook book;
        private GlobalnetMode bookMode;
        private boolean closed;

        void open() {
            try {
                LiveObjectsInformers started = new LiveObjectsInformers(client, settings.namespace(), settings.clusterId(), loop::signal);
                synchronized (this) {
                    if (closed) {
                        started.close();
                        return;
                    }
                    informers = started;
                }
                loop.start();
            } catch (RuntimeException e) {
                LOG.error("globalnet: cannot watch the cluster: {}", e.toString(), e);
                stopTerm();
                // Stand down so another replica (or this one, later) can try again.
                election.close();
            }
        }

        private void pass() {
            LiveObjects live = informers.snapshot();
            LiveModel model = ClusterModelBuilder.build(settings.clusterId(), List.of(live));
            Optional<Cluster> cluster = model.clusterSet().cluster(settings.clusterId());
            Optional<Ipv4Prefix> cidr = cluster.flatMap(Cluster::globalCidr);
            if (cluster.isEmpty() || cidr.isEmpty()) {
                LOG.warn("globalnet: cluster {} has no Cluster object with a global_cidr yet; nothing to allocate from", settings.clusterId());
                return;
            }
            GlobalnetMode mode = model.clusterSet().globalnet().mode();
            if (book == null || !book.globalCidr().equals(cidr.get()) || bookMode != mode) {
                // A new term, or the global CIDR or the design changed: everything is taken back from
                // status (legacy: from the annotations) first.
                book = new AllocationBook(cidr.get());
                bookMode = mode;
                apply(mode == GlobalnetMode.LEGACY ? LegacyGlobalnetPass.restore(book, live) : GlobalnetPass.restore(book, live, clock.instant()));
                LOG.info("globalnet: restored allocations ({}) ; {} addresses free in {}", mode.yamlName(), book.freeCount(), cidr.get());
            }
            apply(mode == GlobalnetMode.LEGACY ? LegacyGlobalnetPass.run(book, live, cluster.get(), clock.instant())
                    : GlobalnetPass.run(book, live, cluster.get(), clock.instant()));
        }

        private void apply(List<GlobalnetAction> actions) {
            for (GlobalnetAction action : actions) {
                try {
                    switch (action) {
                        case GlobalnetAction.Create create -> {
                            try {
                                resource(create.object()).create();
                            } catch (KubernetesClientException e) {
                                // 409: the informer had not yet seen our own earlier creation.
                                if (e.getCode() != 409) {
                                    throw e;
                                }
                            }
                        }
                        case GlobalnetAction.Delete delete -> {
                            Resource<? extends HasMetadata> resource = resource(delete.key());
                            HasMetadata current = resource.get();
                            if (current != null && delete.uid().equals(current.getMetadata().getUid())) {
                                resource.delete();
                            }
                        }
                        case GlobalnetAction.WriteEgressStatus write -> writeEgressStatus(write);
                        case GlobalnetAction.Annotate annotate -> annotate(annotate);
                        case GlobalnetAction.WriteIngressStatus write -> client.resources(GlobalIngressIPResource.class)
                                .inNamespace(write.key().namespace()).withName(write.key().name())
                                .editStatus(sameUid(write.uid(), o -> {
                                    o.setStatus(write.status());
                                    return o;
                                }));
                    }
                } catch (KubernetesClientException e) {
                    // Conflicts and objects deleted meanwhile are normal: the next pass sees the new state.
                    LOG.info("globalnet: {} of {} did not go through ({}); retrying on the next pass",
                            action.getClass().getSimpleName(), action.key(), e.getCode() == 0 ? e.getMessage() : "HTTP " + e.getCode());
                    loop.signal();
                }
            }
        }

        private void writeEgressStatus(GlobalnetAction.WriteEgressStatus write) {
            AllocationStatus status = write.status();
            if (write.key().kind().equals(new ClusterGlobalEgressIPResource().getKind())) {
                client.resources(ClusterGlobalEgressIPResource.class).withName(write.key().name()).editStatus(sameUid(write.uid(), o -> {
                    o.setStatus(status);
                    return o;
                }));
            } else {
                client.resources(GlobalEgressIPResource.class).inNamespace(write.key().namespace()).withName(write.key().name())
                        .editStatus(sameUid(write.uid(), o -> {
                            o.setStatus(status);
                            return o;
                        }));
            }
        }

        private void annotate(GlobalnetAction.Annotate annotate) {
            ObjectKey key = annotate.key();
            UnaryOperator<HasMetadata> edit = o -> {
                java.util.Map<String, String> annotations = new java.util.HashMap<>(
                        o.getMetadata().getAnnotations() == null ? java.util.Map.of() : o.getMetadata().getAnnotations());
                annotate.address().ifPresentOrElse(a -> annotations.put(SubmarinerApi.GLOBAL_IP_ANNOTATION, a.toString()),
                        () -> annotations.remove(SubmarinerApi.GLOBAL_IP_ANNOTATION));
                o.getMetadata().setAnnotations(annotations);
                return o;
            };
            switch (key.kind()) {
                case "Service" -> client.services().inNamespace(key.namespace()).withName(key.name()).edit(sameUid(annotate.uid(), s -> (Service) edit.apply(s)));
                case "Pod" -> client.pods().inNamespace(key.namespace()).withName(key.name()).edit(sameUid(annotate.uid(), p -> (Pod) edit.apply(p)));
                default -> client.nodes().withName(key.name()).edit(sameUid(annotate.uid(), n -> (Node) edit.apply(n)));
            }
        }

        private <T extends HasMetadata> UnaryOperator<T> sameUid(String uid, UnaryOperator<T> edit) {
            return current -> uid.equals(current.getMetadata().getUid()) ? edit.apply(current) : current;
        }

        private Resource<? extends HasMetadata> resource(HasMetadata object) {
            return client.resource(object);
        }

        private Resource<? extends HasMetadata> resource(ObjectKey key) {
            return switch (key.kind()) {
                case "ClusterGlobalEgressIP" -> client.resources(ClusterGlobalEgressIPResource.class).withName(key.name());
                case "GlobalEgressIP" -> client.resources(GlobalEgressIPResource.class).inNamespace(key.namespace()).withName(key.name());
                default -> client.resources(GlobalIngressIPResource.class).inNamespace(key.namespace()).withName(key.name());
            };
        }

        void close() {
            LiveObjectsInformers opened;
            synchronized (this) {
                closed = true;
                opened = informers;
            }
            loop.close();
            if (opened != null) {
                opened.close();
            }
        }
    }
}
