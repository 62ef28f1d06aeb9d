package io.periscope.lab.ovn;

/**
 * The cluster sets the real-OVN tests plan: {@code NorthboundProgrammerBringsRealOvnToThePlan} here
 * and lab-simulator's {@code RealOvnRoutesLikeTheSimulator}.
 */
public final class OvnTestTopologies {

    public static final String SKIP = "real OVN cannot run here: ";

    /**
     * The cluster set of features/globalnet-ovn.feature, with a client pod in west for its local
     * service; without Globalnet the clusters' pod and service CIDRs differ.
     */
    public static final String TEMPLATE = """
            name: NAME
            GLOBALNET
            defaults: {cableDriver: vxlan}
            clusters:
              - name: east
                cni: ovn-kubernetes
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}
                  - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}
                pods:
                  - {name: web, node: east-worker, ip: 10.244.1.10, labels: {app: web}}
                  - {name: node-agent, namespace: kube-system, node: east-worker, hostNetwork: true}
              - name: west
                cni: ovn-kubernetes
                podCIDRs: [WEST.0.0/16]
                serviceCIDRs: [WEST_SERVICES.0.0/16]
                nodes:
                  - {name: west-gw, ip: 192.168.20.2, cniIP: WEST.0.1, gateway: true}
                  - {name: west-worker, ip: 192.168.20.3, cniIP: WEST.1.1}
                pods:
                  - {name: nginx-1, node: west-worker, ip: WEST.1.10, labels: {app: nginx}}
                  - {name: client, node: west-gw, ip: WEST.0.20}
                services:
                  - {name: nginx, clusterIP: WEST_SERVICES.0.50, selector: {app: nginx}, ports: [{port: 8080}]}
                exports: [default/nginx]
            """;

    public static final String GLOBALNET = TEMPLATE.replace("NAME", "globalnet-ovn")
            .replace("GLOBALNET", "globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}")
            .replace("WEST_SERVICES", "10.96").replace("WEST", "10.244");
    public static final String VANILLA = TEMPLATE.replace("NAME", "vanilla-ovn").replace("GLOBALNET\n", "")
            .replace("WEST_SERVICES", "10.120").replace("WEST", "10.20");

    private OvnTestTopologies() {
    }
}
