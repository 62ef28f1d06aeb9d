Feature: Multiple active gateways (seed 004_581c3dab1e5bc183.txt)
  With the --multi-active-gateway flag every gateway node of a cluster is active: non-gateway nodes
  spread flows over all local gateways, gateways spread them over all remote gateways, through
  multipath routes, nexthop groups or resilient nexthop groups, and VXLAN tunnels with several
  endpoints. With Globalnet each gateway has its own ClusterGlobalEgressIP, and remote gateways route
  replies back to the gateway that translated them. Upstream built this as a proof of concept only;
  Periscope implements it.

  Rule: The flag --multi-active-gateway turns the feature on; without it one gateway is active (sections on the subctl join flag and on leader election)

    @kubernetes
    Scenario: Without the flag only the first gateway is active and the others stand by
      Given the cluster set:
        """
        name: one-active-gateway
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.1.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-0, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.2.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """
      When the cluster set is deployed
      Then the Endpoints are:
        | cluster  | gateway | subnets                    | allocatedIPs |
        | cluster1 | gw-1    | 100.1.0.0/16, 10.1.0.0/16 |              |
        | cluster2 | gw-3    | 100.2.0.0/16, 10.0.0.0/16 |              |
      And on cluster1/worker-1 the route to 100.2.0.0/16 in table main has the nexthops 240.18.0.6
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      And every path crosses cluster1/gw-1
      And no path crosses cluster1/gw-2

  Rule: Every gateway is active, tunnelled to every node of its cluster and to every remote gateway (sections on the design, the VXLAN tunnels and the Route Agent)

    Background:
      Given the cluster set:
        """
        name: multiple-active-gateways
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.1.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-0, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.2.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """

    @kubernetes
    Scenario: With the flag there is no stand-by gateway: every gateway publishes an Endpoint
      When the cluster set is deployed
      Then the Endpoints are:
        | cluster  | gateway | subnets                    | allocatedIPs |
        | cluster1 | gw-1    | 100.1.0.0/16, 10.1.0.0/16 |              |
        | cluster1 | gw-2    | 100.1.0.0/16, 10.1.0.0/16 |              |
        | cluster2 | gw-3    | 100.2.0.0/16, 10.0.0.0/16 |              |
        | cluster2 | gw-4    | 100.2.0.0/16, 10.0.0.0/16 |              |

    @kubernetes
    Scenario: A non-gateway node has one multi-endpoint VXLAN tunnel to every gateway of its cluster
      When the cluster set is deployed
      Then cluster1/worker-1 has the VXLAN device vx-submariner with VNI 100, UDP port 4800 and address 240.18.0.10/8
      And the all-zero FDB entries of vx-submariner on cluster1/worker-1 go to exactly 172.18.0.6 and 172.18.0.8

    @kubernetes
    Scenario: A gateway's intra-cluster tunnel reaches every non-gateway node of its cluster
      When the cluster set is deployed
      Then cluster1/gw-1 has the VXLAN device vx-submariner with VNI 100, UDP port 4800 and address 240.18.0.6/8
      And the all-zero FDB entries of vx-submariner on cluster1/gw-1 go to exactly 172.18.0.10
      And the all-zero FDB entries of vx-submariner on cluster1/gw-2 go to exactly 172.18.0.10

    @kubernetes
    Scenario: Every gateway has an inter-cluster tunnel to every remote gateway
      When the cluster set is deployed
      Then cluster1/gw-1 has the VXLAN device vxlan-tunnel with VNI 1000, UDP port 4500 and address 241.18.0.6/8
      And the all-zero FDB entries of vxlan-tunnel on cluster1/gw-1 go to exactly 172.18.0.4 and 172.18.0.9
      And the all-zero FDB entries of vxlan-tunnel on cluster1/gw-2 go to exactly 172.18.0.4 and 172.18.0.9
      And the all-zero FDB entries of vxlan-tunnel on cluster2/gw-4 go to exactly 172.18.0.6 and 172.18.0.8
      And cluster1/worker-1 has no VXLAN device vxlan-tunnel

  Rule: Flows are load-balanced over the gateways (sections on load balancing options, Route Agent and Cable Driver)

    Background:
      Given the cluster set:
        """
        name: multiple-active-gateways
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.1.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-0, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.2.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """

    @kubernetes
    Scenario: Option 1: multipath routes of equal weights to every local and every remote gateway
      When the cluster set is deployed
      Then the routes of cluster1/worker-1 in table main include:
        | route                                                                                                         |
        | 10.0.0.0/16 proto static nexthop via 240.18.0.6 dev vx-submariner weight 1 nexthop via 240.18.0.8 dev vx-submariner weight 1  |
        | 100.2.0.0/16 proto static nexthop via 240.18.0.6 dev vx-submariner weight 1 nexthop via 240.18.0.8 dev vx-submariner weight 1 |
      And the routes of cluster1/gw-2 in table 100 include:
        | route                                                                                                                                 |
        | 10.0.0.0/16 src 10.1.64.1 metric 100 nexthop via 241.18.0.4 dev vxlan-tunnel weight 1 nexthop via 241.18.0.9 dev vxlan-tunnel weight 1  |
        | 100.2.0.0/16 src 10.1.64.1 metric 100 nexthop via 241.18.0.4 dev vxlan-tunnel weight 1 nexthop via 241.18.0.9 dev vxlan-tunnel weight 1 |
      And cluster1/worker-1 sets net.ipv4.fib_multipath_hash_policy to 1
      And cluster1/gw-2 sets net.ipv4.fib_multipath_hash_policy to 1

    @kubernetes
    Scenario: Flows are spread over the local gateways and over the remote gateways
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      And the paths are spread over cluster1/gw-1 and cluster1/gw-2
      And the paths are spread over cluster2/gw-3 and cluster2/gw-4

    @kubernetes
    Scenario: Option 2: one nexthop group shared by the routes
      Given the cluster set:
        """
        name: nexthop-groups
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            multiActiveGateways: true
            gatewayLoadBalancing: nexthop-groups
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.1.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            multiActiveGateways: true
            gatewayLoadBalancing: nexthop-groups
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-0, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.2.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """
      When the cluster set is deployed
      Then on cluster1/worker-1 the route to 100.2.0.0/16 in table main uses a plain nexthop group over 240.18.0.6 and 240.18.0.8
      And on cluster1/worker-1 the routes to 10.0.0.0/16 and 100.2.0.0/16 in table main share one nexthop group
      And on cluster1/gw-1 the route to 100.2.0.0/16 in table 100 uses a plain nexthop group over 241.18.0.4 and 241.18.0.9
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      And the paths are spread over cluster1/gw-1 and cluster1/gw-2

    @kubernetes
    Scenario: Option 3: a resilient nexthop group
      Given the cluster set:
        """
        name: resilient-nexthop-groups
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            multiActiveGateways: true
            gatewayLoadBalancing: resilient-nexthop-groups
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.1.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            multiActiveGateways: true
            gatewayLoadBalancing: resilient-nexthop-groups
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-0, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.2.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """
      When the cluster set is deployed
      Then on cluster1/worker-1 the route to 100.2.0.0/16 in table main uses a resilient nexthop group over 240.18.0.6 and 240.18.0.8
      And on cluster2/gw-4 the route to 10.1.0.0/16 in table 100 uses a resilient nexthop group over 241.18.0.6 and 241.18.0.8
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered

  Rule: The documented packet flow without Globalnet (section "An example packet flow with Globalnet disabled")

    Background:
      Given the cluster set:
        """
        name: multiple-active-gateways
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.1.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-0, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.2.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """

    @kubernetes
    Scenario: A pod reaches an imported service through GW-2 and GW-4, step by step
      The document's addresses, where they agree with each other: its step 3b SNATs to 10.2.192.0,
      which lies outside cluster2's pod network, so GW-4's CNI address here is 10.0.192.1. The doc
      column numbers the document's steps; rows follow the kernel's order, which routes a packet
      between reversing its two translations (step 5c comes before 5b).
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      And the paths through cluster1/gw-2 and cluster2/gw-4 are followed
      Then the connection is delivered
      And the packet goes:
        | doc | node                     | step    | detail                                                                                                                | SRC        | DST            |
        | 1   | cluster1/worker-1        | route   | table main: 100.2.0.0/16 proto static nexthop via 240.18.0.6 dev vx-submariner weight 1 nexthop via 240.18.0.8 dev vx-submariner weight 1 -> via 240.18.0.8 | 10.1.128.4 | 100.2.0.132:80 |
        | 1   | cluster1/worker-1        | depart  | out vx-submariner                                                                                                     | 10.1.128.4 | 100.2.0.132:80 |
        | 2   | cluster1/gw-2            | route   | table 100: 100.2.0.0/16 src 10.1.64.1 metric 100 nexthop via 241.18.0.4 dev vxlan-tunnel weight 1 nexthop via 241.18.0.9 dev vxlan-tunnel weight 1 -> via 241.18.0.9 | 10.1.128.4 | 100.2.0.132:80 |
        | 2   | cluster1/gw-2            | depart  | out vxlan-tunnel                                                                                                      | 10.1.128.4 | 100.2.0.132:80 |
        | 3   | cluster2/gw-4            | arrive  | in vxlan-tunnel                                                                                                       | 10.1.128.4 | 100.2.0.132:80 |
        | 3a  | cluster2/gw-4            | dnat    | KUBE-SEP-...: -p tcp -m comment --comment "default/nginx" -j DNAT --to-destination 10.0.128.5:80                        | 10.1.128.4 | 10.0.128.5:80  |
        | 3b  | cluster2/gw-4            | snat    | SUBMARINER-POSTROUTING: ... -m conntrack --ctstate DNAT -j SNAT --to-source 10.0.192.1                               | 10.0.192.1 | 10.0.128.5:80  |
        | 3c  | cluster2/worker-2        | arrive  | in eth0                                                                                                               | 10.0.192.1 | 10.0.128.5:80  |
        | 4   | cluster2/default/nginx-0 | deliver |                                                                                                                       | 10.0.192.1 | 10.0.128.5:80  |
      And the reply goes:
        | doc | node                     | step    | detail                                                                                                               | SRC            | DST        |
        | 4   | cluster2/default/nginx-0 | arrive  |                                                                                                                      | 10.0.128.5:80  | 10.0.192.1 |
        | 4   | cluster2/worker-2        | route   | -> via 172.18.0.9                                                                                                    | 10.0.128.5:80  | 10.0.192.1 |
        | 5a  | cluster2/gw-4            | unsnat  |                                                                                                                      | 10.0.128.5:80  | 10.1.128.4 |
        | 5c  | cluster2/gw-4            | route   | table 100: 10.1.0.0/16 src 10.0.192.1 metric 100 nexthop via 241.18.0.6 dev vxlan-tunnel weight 1 nexthop via 241.18.0.8 dev vxlan-tunnel weight 1 | 10.0.128.5:80 | 10.1.128.4 |
        | 5b  | cluster2/gw-4            | undnat  |                                                                                                                      | 100.2.0.132:80 | 10.1.128.4 |
        | 6a  | cluster1/default/client  | deliver |                                                                                                                      | 100.2.0.132:80 | 10.1.128.4 |
      And the replies return through cluster1/gw-1 on some paths and through cluster1/gw-2 on others

    @kubernetes
    Scenario: A reply that comes back through the other gateway is accepted and not translated again
      GW-1 has no conntrack state for a flow that left through GW-2: the FORWARD rule lets the reply
      in, and the SNAT of step 3b does not apply to it (it only matches DNATed connections).
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      And the paths through cluster1/gw-2 and cluster2/gw-4 returning through cluster1/gw-1 are followed
      Then the connection is delivered
      And the reply goes:
        | doc | node                    | step    | detail                                                       | SRC            | DST        |
        | 6   | cluster1/gw-1           | arrive  | in vxlan-tunnel                                              | 100.2.0.132:80 | 10.1.128.4 |
        | 6a  | cluster1/gw-1           | filter  | SUBMARINER-FORWARD: -d 10.1.0.0/16 -i vxlan-tunnel -j ACCEPT | 100.2.0.132:80 | 10.1.128.4 |
        | 6a  | cluster1/default/client | deliver |                                                              | 100.2.0.132:80 | 10.1.128.4 |
      And cluster1/gw-1 translates nothing in the reply

    @kubernetes
    Scenario: Every gateway has the SNAT rule for DNATed tunnel traffic and the FORWARD rule for returning traffic
      Seed 004 writes the SNAT rule with -i vxlan-tunnel, which iptables does not allow in
      POSTROUTING: Periscope marks the packets that arrive on vxlan-tunnel in mangle PREROUTING and
      matches the mark instead.
      When the cluster set is deployed
      Then the mangle table of cluster2/gw-4 has:
        | chain                  | rule                                                |
        | PREROUTING             | -j SUBMARINER-PREROUTING                            |
        | SUBMARINER-PREROUTING  | -i vxlan-tunnel -j MARK --set-xmark 0x100000/0x100000 |
      And the nat table of cluster2/gw-4 has:
        | chain                  | rule                                                                                       |
        | SUBMARINER-POSTROUTING | -o eth0 -m mark --mark 0x100000/0x100000 -m conntrack --ctstate DNAT -j SNAT --to-source 10.0.192.1 |
      And the filter table of cluster2/gw-4 has:
        | chain              | rule                                   |
        | SUBMARINER-FORWARD | -d 10.0.0.0/16 -i vxlan-tunnel -j ACCEPT |
      And the nat table of cluster2/gw-3 has:
        | chain                  | rule                                                                                     |
        | SUBMARINER-POSTROUTING | -o eth0 -m mark --mark 0x100000/0x100000 -m conntrack --ctstate DNAT -j SNAT --to-source 10.0.0.1 |

    Scenario: When a gateway is removed for good, its flows move to the remaining gateway and the routes follow
      The route agent and the cable driver reconcile level-driven: the cluster set is planned again
      without the node, as the control plane converges once it is gone, and the routes are rebuilt
      from the gateways that remain, with no nexthop left behind. A gateway failing under traffic,
      noticed by the agents' health checks, is the rule "Traffic survives a gateway's failure" below.
      In the lab the removal goes to the running lab (lab apply): the gateway's namespace goes, and
      the agents of the nodes that remain must delete every entry naming it; the kernel is read
      afterwards, and someone else's rule stays.
      When someone else's rule "-d 192.0.2.10/32 -j ACCEPT" is appended to chain FORWARD of the filter table of cluster1/worker-1
      And the node cluster1/gw-1 is removed from the cluster set
      Then no host names an address of the removed node cluster1/gw-1
      And someone else's rule "-d 192.0.2.10/32 -j ACCEPT" is still in chain FORWARD of the filter table of cluster1/worker-1
      And on cluster1/worker-1 the route to 100.2.0.0/16 in table main has the nexthops 240.18.0.8
      And on cluster2/gw-4 the route to 10.1.0.0/16 in table 100 has the nexthops 241.18.0.8
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      And every path crosses cluster1/gw-2

  Rule: The documented packet flow with Globalnet, one ClusterGlobalEgressIP per gateway (sections "An example packet flow with Globalnet enabled" and on Globalnet)

    Background:
      Given the cluster set:
        """
        name: mag-globalnet
        globalnet: {enabled: true, cidr: 242.254.0.0/16, clusterSize: 256}
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.1.0/24
            multiActiveGateways: true
            clusterEgressIPs: 8
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.0.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.0.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.0.128.4}
              - {name: report, namespace: ns1, node: worker-1, ip: 10.0.128.7}
            globalEgressIPs:
              - {name: ns-egressip, namespace: ns1, numberOfIPs: 1}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.2.0/24
            multiActiveGateways: true
            clusterEgressIPs: 8
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-7d4f, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.0.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """

    @kubernetes
    Scenario: Every gateway has a ClusterGlobalEgressIP of its own, named after its node, from one allocator
      When the cluster set is deployed
      Then the global IPs of cluster cluster1 are:
        | object                                                  | addresses                 | status  |
        | ClusterGlobalEgressIP gw-1-cluster-egress.submariner.io | 242.254.1.1-242.254.1.8   | Success |
        | ClusterGlobalEgressIP gw-2-cluster-egress.submariner.io | 242.254.1.9-242.254.1.16  | Success |
        | GlobalEgressIP ns1/ns-egressip                          | 242.254.1.254             | Success |
        | Gateway gw-1                                            | 242.254.1.253             | Success |
        | Gateway gw-2                                            | 242.254.1.252             | Success |
      And the global IPs of cluster cluster2 are:
        | object                                                  | addresses                 | status  |
        | ClusterGlobalEgressIP gw-3-cluster-egress.submariner.io | 242.254.2.1-242.254.2.8   | Success |
        | ClusterGlobalEgressIP gw-4-cluster-egress.submariner.io | 242.254.2.9-242.254.2.16  | Success |
        | GlobalIngressIP default/svc-nginx                       | 242.254.2.254             | Success |
        | Gateway gw-3                                            | 242.254.2.253             | Success |
        | Gateway gw-4                                            | 242.254.2.252             | Success |
      And no global IP of cluster cluster1 is held twice

    @kubernetes
    Scenario: Each gateway SNATs cluster egress to its own range; cluster-wide GlobalEgressIPs are on every gateway
      When the cluster set is deployed
      Then the nat table of cluster1/gw-1 has:
        | chain                | rule                                                                                      |
        | SUBMARINER-GN-MARK   | -d 242.254.2.0/24 -j MARK --set-xmark 0xc0000/0xc0000                                     |
        | SM-GN-EGRESS-NS      | ... --match-set SM-GN-7UWIRC3FINK6KY6B64K2JXSSZ src -j SNAT --to-source 242.254.1.254     |
        | SM-GN-EGRESS-CLUSTER | -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8 |
      And the nat table of cluster1/gw-2 has:
        | chain                | rule                                                                                       |
        | SUBMARINER-GN-MARK   | -d 242.254.2.0/24 -j MARK --set-xmark 0xc0000/0xc0000                                      |
        | SM-GN-EGRESS-NS      | ... --match-set SM-GN-7UWIRC3FINK6KY6B64K2JXSSZ src -j SNAT --to-source 242.254.1.254      |
        | SM-GN-EGRESS-CLUSTER | -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.9-242.254.1.16 |

    @kubernetes
    Scenario: The Endpoints carry each gateway's ClusterGlobalEgressIPs to the other clusters
      When the cluster set is deployed
      Then the Endpoints are:
        | cluster  | gateway | subnets        | allocatedIPs             |
        | cluster1 | gw-1    | 242.254.1.0/24 | 242.254.1.1-242.254.1.8  |
        | cluster1 | gw-2    | 242.254.1.0/24 | 242.254.1.9-242.254.1.16 |
        | cluster2 | gw-3    | 242.254.2.0/24 | 242.254.2.1-242.254.2.8  |
        | cluster2 | gw-4    | 242.254.2.0/24 | 242.254.2.9-242.254.2.16 |

    @kubernetes
    Scenario: Remote gateways route each ClusterGlobalEgressIP back to its gateway with metric 98
      When the cluster set is deployed
      Then the routes of cluster2/gw-4 in table 100 include:
        | route                                                                                                                                  |
        | 242.254.1.0/24 src 10.0.192.1 metric 100 nexthop via 241.18.0.6 dev vxlan-tunnel weight 1 nexthop via 241.18.0.8 dev vxlan-tunnel weight 1 |
        | 242.254.1.1 via 241.18.0.6 dev vxlan-tunnel proto static metric 98                                                                    |
        | 242.254.1.8 via 241.18.0.6 dev vxlan-tunnel proto static metric 98                                                                    |
        | 242.254.1.9 via 241.18.0.8 dev vxlan-tunnel proto static metric 98                                                                    |
        | 242.254.1.16 via 241.18.0.8 dev vxlan-tunnel proto static metric 98                                                                   |

    @kubernetes
    Scenario: Each gateway's own global IP is routed to it, so a remote health check reaches the gateway that answers it
      Upstream's node controller gives the active gateway node a global IP of its own, its Endpoint's
      healthCheckIP, and DNATs ICMP to it to the node's CNI address. With several active gateways only
      the owner has that DNAT, so the remote gateways route the address to it at metric 98, like its
      ClusterGlobalEgressIPs, from their CNI address (which Globalnet then SNATs): a ping spread over
      the cluster's multipath route would otherwise find no route on the other gateway.
      When the cluster set is deployed
      Then the routes of cluster1/gw-1 in table 100 include:
        | route                                                                              |
        | 242.254.2.253 via 241.18.0.4 dev vxlan-tunnel proto static src 10.0.0.1 metric 98 |
        | 242.254.2.252 via 241.18.0.9 dev vxlan-tunnel proto static src 10.0.0.1 metric 98 |
      And the Endpoints are:
        | cluster  | gateway | subnets        | allocatedIPs             | healthCheckIP |
        | cluster1 | gw-1    | 242.254.1.0/24 | 242.254.1.1-242.254.1.8  | 242.254.1.253 |
        | cluster1 | gw-2    | 242.254.1.0/24 | 242.254.1.9-242.254.1.16 | 242.254.1.252 |
        | cluster2 | gw-3    | 242.254.2.0/24 | 242.254.2.1-242.254.2.8  | 242.254.2.253 |
        | cluster2 | gw-4    | 242.254.2.0/24 | 242.254.2.9-242.254.2.16 | 242.254.2.252 |
      When cluster1/gw-1 pings 242.254.2.252
      Then the connection is delivered
      And every path crosses cluster2/gw-4
      And no path crosses cluster2/gw-3
      And the packet goes:
        | node          | step | detail                                                                       | SRC                     | DST        |
        | cluster1/gw-1 | snat | SM-GN-EGRESS-CLUSTER: ... --to-source 242.254.1.1-242.254.1.8                | 242.254.1.1-242.254.1.8 | 242.254.2.252 |
        | cluster2/gw-4 | dnat | SUBMARINER-GN-INGRESS: -d 242.254.2.252/32 -p icmp -j DNAT --to-destination 10.0.192.1 | 242.254.1.1-242.254.1.8 | 10.0.192.1 |

    @kubernetes
    Scenario: A pod reaches an imported service through GW-2 and GW-4 with Globalnet, step by step
      The document's step 2a SNATs to 242.254.1.1-242.254.1.8 while its step 5c routes 242.254.1.10 to
      16 back to GW-2: the ranges are per gateway, and GW-2's is 242.254.1.9-242.254.1.16. Rows follow
      the kernel's order (routing before POSTROUTING's SNAT, so 2b before 2a; 5c before 5b).
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the destination is 242.254.2.254:80
      When the paths through cluster1/gw-2 and cluster2/gw-4 are followed
      Then the connection is delivered
      And the packet goes:
        | doc | node                        | step    | detail                                                                                                                                                                              | SRC                      | DST              |
        | 1   | cluster1/worker-1           | route   | table main: 242.254.2.0/24 proto static nexthop via 240.18.0.6 dev vx-submariner weight 1 nexthop via 240.18.0.8 dev vx-submariner weight 1 -> via 240.18.0.8                       | 10.0.128.4               | 242.254.2.254:80 |
        | 2b  | cluster1/gw-2               | route   | table 100: 242.254.2.0/24 src 10.0.64.1 metric 100 nexthop via 241.18.0.4 dev vxlan-tunnel weight 1 nexthop via 241.18.0.9 dev vxlan-tunnel weight 1 -> via 241.18.0.9 | 10.0.128.4               | 242.254.2.254:80 |
        | 2a  | cluster1/gw-2               | snat    | SM-GN-EGRESS-CLUSTER: -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.9-242.254.1.16                                                                    | 242.254.1.9-242.254.1.16 | 242.254.2.254:80 |
        | 3   | cluster2/gw-4               | arrive  | in vxlan-tunnel                                                                                                                                                                     | 242.254.1.9-242.254.1.16 | 242.254.2.254:80 |
        | 3a  | cluster2/gw-4               | dnat    | KUBE-SEP-...: -p tcp -m comment --comment "default/submariner-..." -j DNAT --to-destination 10.0.128.5:80                                                                           | 242.254.1.9-242.254.1.16 | 10.0.128.5:80    |
        | 3b  | cluster2/gw-4               | snat    | SUBMARINER-POSTROUTING: ... --ctstate DNAT -j SNAT --to-source 10.0.192.1                                                                                                           | 10.0.192.1               | 10.0.128.5:80    |
        | 3c  | cluster2/worker-2           | arrive  | in eth0                                                                                                                                                                             | 10.0.192.1               | 10.0.128.5:80    |
        | 4   | cluster2/default/nginx-7d4f | deliver |                                                                                                                                                                                     | 10.0.192.1               | 10.0.128.5:80    |
      And the reply goes:
        | doc | node                        | step    | detail                                                      | SRC              | DST                      |
        | 4   | cluster2/worker-2           | route   | -> via 172.18.0.9                                           | 10.0.128.5:80    | 10.0.192.1               |
        | 5a  | cluster2/gw-4               | unsnat  |                                                             | 10.0.128.5:80    | 242.254.1.9-242.254.1.16 |
        | 5c  | cluster2/gw-4               | route   | table 100: ... via 241.18.0.8 dev vxlan-tunnel proto static metric 98 -> via 241.18.0.8 | 10.0.128.5:80 | 242.254.1.9-242.254.1.16 |
        | 5b  | cluster2/gw-4               | undnat  |                                                             | 242.254.2.254:80 | 242.254.1.9-242.254.1.16 |
        | 6   | cluster1/gw-2               | unsnat  |                                                             | 242.254.2.254:80 | 10.0.128.4               |
        | 6   | cluster1/default/client     | deliver |                                                             | 242.254.2.254:80 | 10.0.128.4               |
      And every reply returns through cluster1/gw-2

    @kubernetes
    Scenario: Every reply returns to the gateway that translated its request
      When cluster1/default/client connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      When the paths through cluster1/gw-1 are followed
      Then every reply returns through cluster1/gw-1
      When the paths through cluster1/gw-2 are followed
      Then every reply returns through cluster1/gw-2

  Rule: With egressOwnership per-gateway every egress address has one owning gateway, so replies reach the gateway that did the SNAT (Periscope's design for the gap the section "An example packet flow with Globalnet enabled" leaves for GlobalEgressIPs and headless pods)

    Scenario Outline: <egress> across <gateways> active gateways: <ownership> ownership
      Given the cluster set:
        """
        name: per-gateway-egress
        globalnet: {enabled: true, cidr: 242.254.0.0/16, clusterSize: 256}
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.1.0/24
            multiActiveGateways: true
            egressOwnership: <ownership>
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.0.64.1, gateway: true}
              - {name: gw-5, ip: 172.18.0.7, cniIP: 10.0.32.1, gateway: <third>}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.0.128.1}
            pods:
              - {name: report, namespace: ns1, node: worker-1, ip: 10.0.128.4, labels: {app: report}}
              - {name: db-0, namespace: ns1, node: worker-1, ip: 10.0.128.5, labels: {role: db}}
              - {name: cache-0, node: worker-1, ip: 10.0.128.6, labels: {app: cache}}
            services:
              - {name: cache, headless: true, selector: {app: cache}, ports: [{port: 6379}]}
            exports: [default/cache]
            globalEgressIPs:
              - {name: ns-egressip, namespace: ns1, numberOfIPs: 1}
              - {name: db-pods, namespace: ns1, podSelector: {matchLabels: {role: db}}, numberOfIPs: 2}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.2.0/24
            multiActiveGateways: true
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: gw-6, ip: 172.18.0.5, cniIP: 10.0.32.1, gateway: <third>}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-7d4f, node: worker-2, ip: 10.0.128.9, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.0.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """
      When cluster1/<source> connects to nginx.default.svc.clusterset.local:80
      Then <outcome>

      Examples:
        | egress                           | source        | gateways | third | ownership   | outcome |
        | a namespace GlobalEgressIP       | ns1/report    | 2        | false | shared      | some paths end no-route and the others are delivered                    |
        | a namespace GlobalEgressIP       | ns1/report    | 2        | false | per-gateway | every path is delivered and its reply returns through the gateway of cluster1 its request left by |
        | a namespace GlobalEgressIP       | ns1/report    | 3        | true  | per-gateway | every path is delivered and its reply returns through the gateway of cluster1 its request left by |
        | a pod-selector GlobalEgressIP    | ns1/db-0      | 2        | false | shared      | some paths end no-route and the others are delivered                    |
        | a pod-selector GlobalEgressIP    | ns1/db-0      | 2        | false | per-gateway | every path is delivered and its reply returns through the gateway of cluster1 its request left by |
        | a pod-selector GlobalEgressIP    | ns1/db-0      | 3        | true  | per-gateway | every path is delivered and its reply returns through the gateway of cluster1 its request left by |
        | a headless pod's own global IP   | default/cache-0 | 2      | false | shared      | some paths end no-route and the others are delivered                    |
        | a headless pod's own global IP   | default/cache-0 | 2      | false | per-gateway | every path is delivered and its reply returns through the gateway of cluster1 its request left by |
        | a headless pod's own global IP   | default/cache-0 | 3      | true  | per-gateway | every path is delivered and its reply returns through the gateway of cluster1 its request left by |

  Rule: Globalnet's controllers move to a single Deployment and the gateways program the datapath (sections on the Globalnet pod and the Gateway pod)

    Background:
      The cluster set of the documented packet flow with Globalnet, above.
      Given the cluster set:
        """
        name: mag-globalnet
        globalnet: {enabled: true, cidr: 242.254.0.0/16, clusterSize: 256}
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.1.0/24
            multiActiveGateways: true
            clusterEgressIPs: 8
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.0.64.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.0.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.0.128.4}
              - {name: report, namespace: ns1, node: worker-1, ip: 10.0.128.7}
            globalEgressIPs:
              - {name: ns-egressip, namespace: ns1, numberOfIPs: 1}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.2.0/24
            multiActiveGateways: true
            clusterEgressIPs: 8
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-7d4f, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - {name: nginx, clusterIP: 100.0.0.132, selector: {app: nginx}, ports: [{port: 80}]}
            exports: [default/nginx]
        """

    @kubernetes
    Scenario: One Globalnet replica allocates; every gateway pod programs its own node
      When the cluster set is deployed
      Then cluster cluster1 runs one Globalnet replica
      And the gateway pods of cluster1/gw-1 and cluster1/gw-2 program the Globalnet rules of their nodes

    @kubernetes
    Scenario: The gateway pods report in the objects' status that the datapath is programmed
      When the cluster set is deployed
      Then the status of the ClusterGlobalEgressIP gw-1-cluster-egress.submariner.io in cluster cluster1 is Success
      And the status of the GlobalEgressIP ns1/ns-egressip in cluster cluster1 says the rules are programmed

  Rule: Traffic survives a gateway's failure: flows through the operational gateways keep flowing, the failed gateway's flows move to the others (seed 004's purpose; its last work item, detection and handling of gateway failure and recovery)

    Background:
      Seed 004's Globalnet packet flow with a third gateway in cluster1, so that the three load
      balancing options differ, and a UDP port on the exported service for sequenced streams.
      Given the cluster set:
        """
        name: mag-failover
        globalnet: {enabled: true, cidr: 242.254.0.0/16, clusterSize: 256}
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.1.0/24
            multiActiveGateways: true
            clusterEgressIPs: 8
            nodes:
              - {name: gw-1, ip: 172.18.0.6, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-2, ip: 172.18.0.8, cniIP: 10.0.64.1, gateway: true}
              - {name: gw-5, ip: 172.18.0.7, cniIP: 10.0.32.1, gateway: true}
              - {name: worker-1, ip: 172.18.0.10, cniIP: 10.0.128.1}
            pods:
              - {name: client, node: worker-1, ip: 10.0.128.4}
          - name: cluster2
            podCIDRs: [10.0.0.0/16]
            serviceCIDRs: [100.0.0.0/16]
            globalCIDR: 242.254.2.0/24
            multiActiveGateways: true
            clusterEgressIPs: 8
            nodes:
              - {name: gw-3, ip: 172.18.0.4, cniIP: 10.0.0.1, gateway: true}
              - {name: gw-4, ip: 172.18.0.9, cniIP: 10.0.192.1, gateway: true}
              - {name: worker-2, ip: 172.18.0.12, cniIP: 10.0.128.1}
            pods:
              - {name: nginx-7d4f, node: worker-2, ip: 10.0.128.5, labels: {app: nginx}}
            services:
              - name: nginx
                clusterIP: 100.0.0.132
                selector: {app: nginx}
                ports: [{port: 80, targetPort: 80, protocol: TCP}, {port: 5001, targetPort: 5001, protocol: UDP}]
            exports: [default/nginx]
        """

    Scenario Outline: Option <option>: a gateway fails and comes back while streams and connections run through all three
      In the lab cluster1/gw-1 is blackholed for 6 s while the streams run: its peers' health checks
      withdraw it, then take it back after the hold-down. On the simulator each stream's and each
      connection's fate is predicted from its own 5-tuple. A stream keeps its gateway only where the
      option keeps it: a multipath route and a plain group re-spread every flow over the two gateways
      left (hash-threshold), so some surviving streams change gateway too (losing nothing), and move
      back; a resilient group moves only the failed gateway's buckets, and keeps the moved streams
      where they are when it returns, since their buckets are busy. With Globalnet a TCP connection
      that changes gateway leaves by another gateway's egress address, which the server has no
      connection for: its kernel answers with a reset. The others survive.
      Given cluster cluster1 balances its gateways with <option>
      When 48 UDP streams to nginx.default.svc.clusterset.local:5001 and 16 TCP connections to nginx.default.svc.clusterset.local:80 run from cluster1/default/client while the gateway cluster1/gw-1 fails and comes back
      Then the streams through the other gateways lose no packet
      And every stream through the failed gateway moves to the other gateways and loses packets only then
      And <surviving> of the streams through the other gateways change gateway
      And <returning> of the streams that left the failed gateway return to it
      And the TCP connections that changed gateway are reset and the others survive

      @kubernetes
      Examples: one option on the kubernetes-on-lab backend too, where the agents' own health checks withdraw the gateway
        | option                   | surviving | returning |
        | multipath-routes         | some      | every     |

      Examples:
        | option                   | surviving | returning |
        | nexthop-groups           | some      | every     |
        | resilient-nexthop-groups | none      | none      |
