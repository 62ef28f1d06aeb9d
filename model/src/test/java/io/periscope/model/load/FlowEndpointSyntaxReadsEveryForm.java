package io.periscope.model.load;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FlowEndpointSyntaxReadsEveryForm {

    @Test
    void threePartSourceIsAPodAndTwoPartSourceIsANode() {
        assertThat(FlowEndpointSyntax.parseSource("east/default/client")).isEqualTo(new FlowSource.PodSource("east", "default", "client"));
        assertThat(FlowEndpointSyntax.parseSource("east/worker-1")).isEqualTo(new FlowSource.NodeSource("east", "worker-1"));
    }

    @Test
    void targetsAreClustersetNamesPodsOrAddressesWithAnOptionalPort() {
        assertThat(FlowEndpointSyntax.parseTarget("nginx.default.svc.clusterset.local:80"))
                .isEqualTo(new FlowTarget.DnsTarget("nginx.default.svc.clusterset.local", 80));
        assertThat(FlowEndpointSyntax.parseTarget("west/default/nginx:8080"))
                .isEqualTo(new FlowTarget.PodTarget("west", "default", "nginx", 8080));
        assertThat(FlowEndpointSyntax.parseTarget("242.254.2.254:443"))
                .isEqualTo(new FlowTarget.AddressTarget(Ipv4Address.parse("242.254.2.254"), 443));
        assertThat(FlowEndpointSyntax.parseTarget("10.1.0.9")).isEqualTo(new FlowTarget.AddressTarget(Ipv4Address.parse("10.1.0.9"), 0));
    }

    @Test
    void aHeadlessPodNameTellsItsCluster() {
        FlowTarget.DnsTarget perPod = (FlowTarget.DnsTarget) FlowEndpointSyntax.parseTarget("http-0.west.http.myproject.svc.clusterset.local:80");
        FlowTarget.DnsTarget service = (FlowTarget.DnsTarget) FlowEndpointSyntax.parseTarget("http.myproject.svc.clusterset.local:80");

        assertThat(FlowEndpointSyntax.clusterOf(perPod)).contains("west");
        assertThat(FlowEndpointSyntax.clusterOf(service)).isEmpty();
    }

    @Test
    void aClusterSpecificServiceNameTellsItsClusterAsAfterTo() {
        FlowTarget.DnsTarget export = (FlowTarget.DnsTarget) FlowEndpointSyntax.parseTarget("west.nginx.default.svc.clusterset.local:80");

        assertThat(export.port()).isEqualTo(80);
        assertThat(FlowEndpointSyntax.clusterOf(export)).contains("west");
    }

    @ParameterizedTest
    @ValueSource(strings = {"east", "east/", "a/b/c/d", "east/default/client:80"})
    void malformedSourcesAreRefusedNamingTheText(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> FlowEndpointSyntax.parseSource(text)).withMessageContaining(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com:80", "nginx.clusterset.local:80", "a.b.c.d.e.svc.clusterset.local:80", "west/nginx:80",
            "10.0.0.300:80", "10.0.0.1:0", "10.0.0.1:65536", "10.0.0.1:", "west/default/nginx:http"})
    void malformedTargetsAreRefusedNamingTheText(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> FlowEndpointSyntax.parseTarget(text)).withMessageContaining(text);
    }
}
