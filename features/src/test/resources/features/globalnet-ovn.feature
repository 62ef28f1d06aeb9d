Feature: Globalnet on OVN-Kubernetes (seed 003_574650d90d5e9317.txt, "Globalnet support for OVN-Kubernetes CNI")
  Globalnet keeps its iptables and ipset design on OVN-Kubernetes clusters: inter-cluster traffic
  passes through the active gateway's host (through Submariner's OVN topology, br-submariner and
  ovn-k8s-sub0), where the same Globalnet rules apply. Periscope plans OVN's logical topology
  (ovn_cluster_router, submariner_router, submariner_join, submariner_gateway, clusterLBGroup), the
  route agent's OVN handler (ovn-k8s-sub0, tables 149 and 150) and the Globalnet rules, and the
  simulator routes packets through the logical routers. The lab builds both clusters on real OVN
  (userspace datapath), with the northbound rows, br-submariner and the host side written by
  Periscope's agents; it answers from the nodes' kernels and OVN's databases. Its probe does not yet
  read OVN's logical hops, so the scenarios that follow a packet inside OVN run on the simulator only.

  Background:
    Given the cluster set:
      """
      name: globalnet-ovn
      globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
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
          podCIDRs: [10.244.0.0/16]
          serviceCIDRs: [10.96.0.0/16]
          nodes:
            - {name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}
            - {name: west-worker, ip: 192.168.20.3, cniIP: 10.244.1.1}
          pods:
            - {name: nginx-1, node: west-worker, ip: 10.244.1.10, labels: {app: nginx}}
          services:
            - {name: nginx, clusterIP: 10.96.0.50, selector: {app: nginx}, ports: [{port: 8080}]}
          exports: [default/nginx]
      """

  Rule: Globalnet keeps its iptables and ipset design on OVN-Kubernetes (sections "Proposal" and "Design Details")

    Scenario: The active gateway of an OVN-Kubernetes cluster carries Globalnet's chains and egress rules
      When the cluster set is deployed
      Then the nat table of east/east-gw has:
        | chain                  | rule                                                                                    |
        | PREROUTING             | -j SUBMARINER-GN-INGRESS                                                                |
        | POSTROUTING            | -j SUBMARINER-POSTROUTING                                                               |
        | SUBMARINER-POSTROUTING | -j SUBMARINER-GN-EGRESS                                                                 |
        | SUBMARINER-GN-MARK     | -d 242.1.0.0/16 -j MARK --set-xmark 0xc0000/0xc0000                                     |
        | SM-GN-EGRESS-CLUSTER   | -s 10.244.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.0.0.1-242.0.0.8 |
      And the global IPs of cluster west include:
        | object                            | addresses     | status  |
        | GlobalIngressIP default/svc-nginx | 242.1.255.254 | Success |

    Scenario: The route agent's chains exist on every node
      When the cluster set is deployed
      Then the nat table of east/east-worker has:
        | chain       | rule                      |
        | POSTROUTING | -j SUBMARINER-POSTROUTING |
      And the filter table of east/east-worker has:
        | chain   | rule                       |
        | FORWARD | -j SUBMARINER-FWD-MSSCLAMP |
        | FORWARD | -j SUBMARINER-FORWARD      |
      And the filter table of east/east-gw has:
        | chain                   | rule                                                                              |
        | FORWARD                 | -j SUBMARINER-FWD-MSSCLAMP                                                        |
        | FORWARD                 | -j SUBMARINER-FORWARD                                                             |
        | SUBMARINER-FWD-MSSCLAMP | -d 242.1.0.0/16 -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --set-mss 1398      |
        | SUBMARINER-FORWARD      | -d 242.1.0.0/16 -i ovn-k8s-mp0 -o wan0 -j ACCEPT                                  |

    Scenario: A pod of an OVN-Kubernetes cluster reaches a remote exported service through submariner_router and the gateway's host
      When east/default/web connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node                    | step   | detail                                                    | SRC                 | DST                |
        | east/ovn_cluster_router | route  | ip4.dst == 242.1.0.0/16 reroute ... submariner_router     | 10.244.1.10         | 242.1.255.254:8080 |
        | east/submariner_router  | route  | ... submariner_gateway                                    | 10.244.1.10         | 242.1.255.254:8080 |
        | east/east-gw            | arrive | in ovn-k8s-sub0                                           | 10.244.1.10         | 242.1.255.254:8080 |
        | east/east-gw            | snat   | SM-GN-EGRESS-CLUSTER: ... --to-source 242.0.0.1-242.0.0.8 | 242.0.0.1-242.0.0.8 | 242.1.255.254:8080 |
        | east/east-gw            | depart | out vxlan-tunnel                                          | 242.0.0.1-242.0.0.8 | 242.1.255.254:8080 |

    Scenario: Without Globalnet, a pod of an OVN-Kubernetes cluster reaches a remote pod through submariner_router
      Given the cluster set:
        """
        name: vanilla-ovn
        defaults: {cableDriver: vxlan}
        clusters:
          - name: east
            cni: ovn-kubernetes
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes:
              - {name: east-gw, ip: 192.168.10.2, cniIP: 10.10.0.1, gateway: true}
              - {name: east-worker, ip: 192.168.10.3, cniIP: 10.10.1.1}
            pods: [{name: web, node: east-worker, ip: 10.10.1.10}]
          - name: west
            cni: ovn-kubernetes
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes:
              - {name: west-gw, ip: 192.168.20.2, cniIP: 10.20.0.1, gateway: true}
              - {name: west-worker, ip: 192.168.20.3, cniIP: 10.20.1.1}
            pods: [{name: nginx-1, node: west-worker, ip: 10.20.1.10}]
        """
      When east/default/web connects to west/default/nginx-1:8080
      Then the connection is delivered
      And every path crosses east/submariner_router
      And every path crosses west/submariner_router

  Rule: The network plugin syncer builds Submariner's OVN topology (section "Design Details", "Network Plugin Syncer (NPS)")

    Scenario: submariner_router, submariner_join and submariner_gateway exist, with the cluster's load balancer group
      When the cluster set is deployed
      Then cluster east has the OVN logical router submariner_router
      And cluster east has the OVN logical switches submariner_join and submariner_gateway
      And the OVN logical router submariner_router of cluster east uses the load balancer group clusterLBGroup

    Scenario: ovn_cluster_router reroutes traffic for remote clusters to submariner_router
      When the cluster set is deployed
      Then the OVN logical router ovn_cluster_router of cluster east has a policy rerouting 242.1.0.0/16 to submariner_router

    Scenario: submariner_router is pinned to the active gateway and sends incoming traffic to ovn_cluster_router
      When the cluster set is deployed
      Then the OVN logical router submariner_router of cluster west is bound to the chassis of west/west-gw
      And the OVN logical router submariner_router of cluster west routes 10.244.0.0/16 to ovn_cluster_router

  Rule: The route agent's OVN handler connects the host to OVN (section "Design Details", "OVN Handler in Route Agent")

    Scenario: Every node has br-submariner with the internal interface ovn-k8s-sub0 at 169.254.254.10
      When the cluster set is deployed
      Then east/east-gw has the OVS bridge br-submariner with the internal port ovn-k8s-sub0 mapped to submariner_gateway
      And east/east-worker has the OVS bridge br-submariner with the internal port ovn-k8s-sub0 mapped to submariner_gateway
      And east/east-gw has the interface ovn-k8s-sub0 with the address 169.254.254.10
      And east/east-worker has the interface ovn-k8s-sub0 with the address 169.254.254.10

    Scenario: Table 150 on every node sends host traffic for remote clusters into the CNI network through ovn-k8s-mp0
      When the cluster set is deployed
      Then the routes of east/east-worker in table 150 include:
        | route                                     |
        | 242.1.0.0/16 via ... dev ovn-k8s-mp0 ... |
      When east/kube-system/node-agent connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node             | step   | detail           |
        | east/east-worker | depart | out ovn-k8s-mp0  |

    Scenario: Table 149 on the active gateway sends traffic from remote clusters through submariner_router
      When the cluster set is deployed
      Then west/west-gw looks up table 149 with priority 149
      And the routes of west/west-gw in table 149 include:
        | route                                           |
        | 10.244.0.0/16 via ... dev ovn-k8s-sub0 ...     |
      When east/default/web connects to nginx.default.svc.clusterset.local:8080
      Then the packet goes:
        | node                   | step   | detail           |
        | west/west-gw           | depart | out ovn-k8s-sub0 |
        | west/submariner_router | route  | ovn_cluster_router |

  Rule: OVN-Kubernetes and Globalnet share iptables on the gateway (section "Design Details")

    Scenario: OVN-Kubernetes DNATs an exported service's external IP to its cluster IP in PREROUTING
      When east/default/web connects to nginx.default.svc.clusterset.local:8080
      Then the packet goes:
        | node         | step | detail                                            | DST             |
        | west/west-gw | dnat | PREROUTING ... -d 242.1.255.254/32 ... 10.96.0.50 | 10.96.0.50:8080 |

  Rule: The four fixes Globalnet needs on OVN-Kubernetes (section "Changes")

    Scenario: SUBMARINER-POSTROUTING leaves the traffic between OVN and the tunnel untranslated (fix "Missing rule in SUBMARINER-POSTROUTING chain")
      When the cluster set is deployed
      Then the nat table of west/west-gw has:
        | chain                  | rule                           |
        | SUBMARINER-POSTROUTING | -o ovn-k8s-sub0 ... -j ACCEPT  |

    Scenario: Table 150 has a default route on every worker node (fix "Missing default route in table 150 on all the worker nodes")
      When the cluster set is deployed
      Then the routes of east/east-worker in table 150 include:
        | route                               |
        | default via ... dev ovn-k8s-mp0 ... |

    Scenario: Ingress traffic to a cluster goes through submariner_router (fix "Redirect the ingress traffic to a cluster via the submariner_router")
      When east/default/web connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And every path crosses west/submariner_router

    Scenario: submariner_router's logical routes send replies back to the active gateway (fix "Fix logical routes programmed in submariner_router")
      When east/default/web connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the reply goes:
        | node                   | step  | detail              |
        | west/submariner_router | route | 242.0.0.0/16 ...    |
        | west/west-gw           | arrive | in ovn-k8s-sub0    |
