package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import static io.periscope.planner.PlannedExamples.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hashed names are the ones the real components compute, so that a trace names what
 * {@code iptables-save} shows on a real node. The expected values are not computed with
 * Periscope's code: the kube-proxy ones are kube-proxy's own test values (proxier_test.go:
 * {@code ns1/svc1:p80} over TCP, endpoint 10.180.0.1:80), the Globalnet ones were computed
 * with Python's hashlib and base64 from the inputs upstream hashes.
 */
class NamesAreTheOnesARealNodeShows {

    private static final ClusterSetPlan PLAN = Planner.plan(PlannedExamples.parse("""
            name: names
            globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
            clusters:
              - name: east
                podCIDRs: [10.180.0.0/16]
                serviceCIDRs: [172.30.0.0/16]
                nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.180.0.254, gateway: true}]
                pods:
                  - {name: svc1-pod, namespace: ns1, node: east-gw, ip: 10.180.0.1, labels: {app: svc1}}
                services:
                  - {name: svc1, namespace: ns1, clusterIP: 172.30.0.41, selector: {app: svc1}, ports: [{name: p80, port: 80, targetPort: 80, protocol: TCP}]}
                  - {name: nginx, namespace: default, clusterIP: 172.30.0.50, selector: {app: svc1}, ports: [{port: 8080, targetPort: 8080, protocol: TCP}]}
                exports: [default/nginx]
              - name: west
                podCIDRs: [10.181.0.0/16]
                serviceCIDRs: [172.31.0.0/16]
                nodes: [{name: west-gw, ip: 192.168.20.2, cniIP: 10.181.0.1, gateway: true}]
            """));

    private static DataplanePlan kubeProxy() {
        return PLAN.host(HostId.node("east", "east-gw")).orElseThrow().kubeProxy();
    }

    @Test
    void kubeProxyChainsHashThePortNameProtocolAndEndpointAsKubeProxyDoes() {
        assertThat(rules(kubeProxy(), Table.NAT, "KUBE-SERVICES"))
                .contains("-d 172.30.0.41/32 -p tcp -m comment --comment \"ns1/svc1:p80 cluster IP\" -m tcp --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O");
        assertThat(rules(kubeProxy(), Table.NAT, "KUBE-SVC-XPGD46QRK7WJZT7O")).last().asString()
                .endsWith("-j KUBE-SEP-SXIVWICOYRO3J4NJ");
    }

    @Test
    void theInternalServiceOfAnExportedServiceIsNamedAfterTheServiceNameAsUpstreamDoes() {
        // GetInternalSvcName("nginx"): "submariner-" + lower(base32(sha256("nginx"))[:32]).
        assertThat(rules(kubeProxy(), Table.NAT, "KUBE-SERVICES"))
                .anyMatch(r -> r.contains("-m comment --comment \"default/submariner-lpq6zr4tl4o5qvrv2t7o3l3gawkagast external IP\""));
    }
}
