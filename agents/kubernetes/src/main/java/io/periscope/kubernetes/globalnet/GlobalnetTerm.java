package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.runtime.Action;
import io.periscope.kubernetes.runtime.Api;
import io.periscope.kubernetes.runtime.Controller;
import io.periscope.kubernetes.runtime.Pass;
import io.periscope.kubernetes.runtime.Snapshot;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalnetMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The Globalnet controller for one leadership term: the allocation book, taken back from the
 * objects' status (legacy: from the annotations) at the term's first pass, and the passes that
 * allocate from it. Each pass's {@link GlobalnetAction}s become the runtime's {@link Action}s.
 */
final class GlobalnetTerm implements Controller {

    private static final Logger LOG = LoggerFactory.getLogger(GlobalnetTerm.class);

    private final String clusterId;
    private final Clock clock;
    private AllocationBook book;
    private GlobalnetMode bookMode;

    GlobalnetTerm(String clusterId, Clock clock) {
        this.clusterId = clusterId;
        this.clock = clock;
    }

    @Override
    public Pass pass(Snapshot snapshot) {
        LiveObjects live = snapshot.live();
        LiveModel model = ClusterModelBuilder.build(clusterId, List.of(live));
        Optional<Cluster> cluster = model.clusterSet().cluster(clusterId);
        Optional<Ipv4Prefix> cidr = cluster.flatMap(Cluster::globalCidr);
        if (cluster.isEmpty() || cidr.isEmpty()) {
            LOG.warn("globalnet: cluster {} has no Cluster object with a global_cidr yet; nothing to allocate from", clusterId);
            return Pass.NOTHING;
        }
        GlobalnetMode mode = model.clusterSet().globalnet().mode();
        List<GlobalnetAction> actions = new ArrayList<>();
        if (book == null || !book.globalCidr().equals(cidr.get()) || bookMode != mode) {
            // A new term, or the global CIDR or the design changed: everything is taken back from
            // status (legacy: from the annotations) first.
            book = new AllocationBook(cidr.get());
            bookMode = mode;
            actions.addAll(mode == GlobalnetMode.LEGACY ? LegacyGlobalnetPass.restore(book, live) : GlobalnetPass.restore(book, live, clock.instant()));
            LOG.info("globalnet: restored allocations ({}) ; {} addresses free in {}", mode.yamlName(), book.freeCount(), cidr.get());
        }
        actions.addAll(mode == GlobalnetMode.LEGACY ? LegacyGlobalnetPass.run(book, live, cluster.get(), clock.instant())
                : GlobalnetPass.run(book, live, cluster.get(), clock.instant()));
        return Pass.writing(actions.stream().map(GlobalnetTerm::write).toList());
    }

    /** 409 on a create: the informer had not yet seen this controller's own earlier creation. */
    @Override
    public Refused refused(Action action, KubernetesClientException refusal) {
        return action instanceof Action.Create && refusal.getCode() == 409 ? Refused.IGNORE : Refused.PASS_AGAIN;
    }

    /** A Globalnet action as the status writer's request; every write but a create holds to the object's uid. */
    static Action write(GlobalnetAction action) {
        ObjectKey key = action.key();
        return switch (action) {
            case GlobalnetAction.Create create -> new Action.Create(Api.LOCAL, create.object());
            case GlobalnetAction.Delete delete -> new Action.DeleteNamed(Api.LOCAL, globalnetKind(key), key.namespace(), key.name(),
                    Optional.of(delete.uid()));
            case GlobalnetAction.WriteEgressStatus write -> key.kind().equals(HasMetadata.getKind(ClusterGlobalEgressIPResource.class))
                    ? new Action.EditStatus<>(ClusterGlobalEgressIPResource.class, "", key.name(), write.uid(), o -> {
                        o.setStatus(write.status());
                        return o;
                    })
                    : new Action.EditStatus<>(GlobalEgressIPResource.class, key.namespace(), key.name(), write.uid(), o -> {
                        o.setStatus(write.status());
                        return o;
                    });
            case GlobalnetAction.WriteIngressStatus write -> new Action.EditStatus<>(GlobalIngressIPResource.class, key.namespace(), key.name(),
                    write.uid(), o -> {
                        o.setStatus(write.status());
                        return o;
                    });
            case GlobalnetAction.Annotate annotate -> annotate(annotate);
        };
    }

    private static Class<? extends HasMetadata> globalnetKind(ObjectKey key) {
        return switch (key.kind()) {
            case "ClusterGlobalEgressIP" -> ClusterGlobalEgressIPResource.class;
            case "GlobalEgressIP" -> GlobalEgressIPResource.class;
            default -> GlobalIngressIPResource.class;
        };
    }

    /**
     * The {@code submariner.io/globalIp} annotation set or removed: of a Gateway (a gateway's own
     * global IP), or with legacy Globalnet of a Service, Pod or Node.
     */
    private static Action annotate(GlobalnetAction.Annotate annotate) {
        ObjectKey key = annotate.key();
        return switch (key.kind()) {
            case "Service" -> new Action.Edit<>(Service.class, key.namespace(), key.name(), annotate.uid(), annotated(annotate));
            case "Pod" -> new Action.Edit<>(Pod.class, key.namespace(), key.name(), annotate.uid(), annotated(annotate));
            case "Gateway" -> new Action.Edit<>(Gateway.class, key.namespace(), key.name(), annotate.uid(), annotated(annotate));
            default -> new Action.Edit<>(Node.class, "", key.name(), annotate.uid(), annotated(annotate));
        };
    }

    private static <T extends HasMetadata> UnaryOperator<T> annotated(GlobalnetAction.Annotate annotate) {
        return o -> {
            Map<String, String> annotations = new HashMap<>(o.getMetadata().getAnnotations() == null ? Map.of() : o.getMetadata().getAnnotations());
            annotate.address().ifPresentOrElse(a -> annotations.put(SubmarinerApi.GLOBAL_IP_ANNOTATION, a.toString()),
                    () -> annotations.remove(SubmarinerApi.GLOBAL_IP_ANNOTATION));
            o.getMetadata().setAnnotations(annotations);
            return o;
        };
    }
}
