package io.periscope.simulator;

import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.periscope.simulator.PlanFixture.ip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Clusters c1 and c2 both export default/web; only c2 exports default/db; c2 has a headless default/kv. */
class FlowResolverAnswersLikeLighthouse {

    private final FlowResolver resolver;

    FlowResolverAnswersLikeLighthouse() {
        PlanFixture f = new PlanFixture();
        PlanFixture.HostBuilder n1 = f.node("c1", "n1", "172.18.0.1", "10.0.1.1");
        PlanFixture.HostBuilder n2 = f.node("c2", "n2", "172.19.0.1", "10.1.1.1");
        f.pod(n1, "default", "client", "10.0.1.4");
        f.pod(n2, "default", "remote", "10.1.1.4");
        f.serviceRecord("c1", "default", "web", Optional.empty(), "100.0.0.10")
                .serviceRecord("c2", "default", "web", Optional.empty(), "100.1.0.10")
                .serviceRecord("c2", "default", "db", Optional.empty(), "100.1.0.20")
                .serviceRecord("c2", "default", "kv", Optional.of("kv-0"), "10.1.1.30")
                .serviceRecord("c2", "default", "kv", Optional.of("kv-1"), "10.1.1.31");
        resolver = new FlowResolver(f.build());
    }

    private ResolvedFlow resolve(FlowSource from, String name) throws FlowResolutionException {
        return resolver.resolve(new Flow("f", from, new FlowTarget.DnsTarget(name, 80), Protocol.TCP, Optional.empty()));
    }

    private static final FlowSource CLIENT = new FlowSource.PodSource("c1", "default", "client");
    private static final FlowSource REMOTE = new FlowSource.PodSource("c2", "default", "remote");

    @Test
    void aServiceNamePrefersTheSourcesOwnClusterThenClusterOrder() throws Exception {
        assertThat(resolve(CLIENT, "web.default.svc.clusterset.local").destination()).isEqualTo(ip("100.0.0.10"));
        assertThat(resolve(REMOTE, "web.default.svc.clusterset.local").destination()).isEqualTo(ip("100.1.0.10"));
        assertThat(resolve(CLIENT, "db.default.svc.clusterset.local").destination()).isEqualTo(ip("100.1.0.20"));
    }

    @Test
    void aClusterQualifiedNameAsksThatCluster() throws Exception {
        assertThat(resolve(CLIENT, "c2.web.default.svc.clusterset.local").destination()).isEqualTo(ip("100.1.0.10"));
        assertThat(resolve(CLIENT, "C1.Web.default.svc.clusterset.local.").destination()).isEqualTo(ip("100.0.0.10"));
    }

    @Test
    void aPodOfAHeadlessServiceHasItsOwnName() throws Exception {
        assertThat(resolve(CLIENT, "kv-1.c2.kv.default.svc.clusterset.local").destination()).isEqualTo(ip("10.1.1.31"));
        assertThat(resolve(CLIENT, "kv.default.svc.clusterset.local").destination()).isEqualTo(ip("10.1.1.30"));
    }

    @Test
    void podSourcesSendFromTheirPodAndNodeSourcesLetTheNodeChooseItsAddress() throws Exception {
        ResolvedFlow fromPod = resolve(CLIENT, "web.default.svc.clusterset.local");
        assertThat(fromPod.source()).isEqualTo(HostId.pod("c1", "default", "client"));
        assertThat(fromPod.sourceIp()).contains(ip("10.0.1.4"));
        assertThat(fromPod.sourcePort()).isEqualTo(ResolvedFlow.DEFAULT_SOURCE_PORT);
        ResolvedFlow fromNode = resolve(new FlowSource.NodeSource("c1", "n1"), "web.default.svc.clusterset.local");
        assertThat(fromNode.source()).isEqualTo(HostId.node("c1", "n1"));
        assertThat(fromNode.sourceIp()).isEmpty();
    }

    @Test
    void podAndAddressTargetsResolveDirectly() throws Exception {
        ResolvedFlow toPod = resolver.resolve(new Flow("f", CLIENT, new FlowTarget.PodTarget("c2", "default", "remote", 8080),
                Protocol.TCP, Optional.empty()));
        assertThat(toPod.destination()).isEqualTo(ip("10.1.1.4"));
        assertThat(toPod.resolvedText()).isEqualTo("10.1.1.4:8080");
        ResolvedFlow toAddress = resolver.resolve(new Flow("f", CLIENT, new FlowTarget.AddressTarget(ip("10.9.9.9"), 0),
                Protocol.ICMP, Optional.empty()));
        assertThat(toAddress.resolvedText()).isEqualTo("10.9.9.9");
    }

    @Test
    void anUnknownNameIsAnErrorNamingItAndWhatIsExported() {
        assertThatThrownBy(() -> resolve(CLIENT, "nginx.default.svc.clusterset.local"))
                .isInstanceOf(FlowResolutionException.class)
                .hasMessage("flow 'f': nothing answers 'nginx.default.svc.clusterset.local': no cluster exports service"
                        + " default/nginx (exported: default/web in c1, c2; default/db in c2; default/kv in c2)");
        assertThatThrownBy(() -> resolve(CLIENT, "c1.db.default.svc.clusterset.local"))
                .hasMessageContaining("cluster c1 does not export default/db (exported by: c2)");
        assertThatThrownBy(() -> resolve(CLIENT, "kv-9.c2.kv.default.svc.clusterset.local"))
                .hasMessageContaining("has no headless pod 'kv-9' (pods: kv-0, kv-1)");
        assertThatThrownBy(() -> resolve(CLIENT, "web.default.svc.cluster.local"))
                .hasMessageContaining("is not a clusterset name");
    }

    @Test
    void unknownClustersAndPodsAreErrorsListingWhatExists() {
        assertThatThrownBy(() -> resolve(new FlowSource.PodSource("c9", "default", "client"), "web.default.svc.clusterset.local"))
                .hasMessage("flow 'f': there is no cluster 'c9' (clusters: c1, c2)");
        assertThatThrownBy(() -> resolve(new FlowSource.PodSource("c1", "default", "ghost"), "web.default.svc.clusterset.local"))
                .hasMessage("flow 'f': cluster c1 has no pod default/ghost (pods: default/client)");
        assertThatThrownBy(() -> resolve(new FlowSource.NodeSource("c1", "n7"), "web.default.svc.clusterset.local"))
                .hasMessage("flow 'f': cluster c1 has no node 'n7' (nodes: n1)");
    }
}
