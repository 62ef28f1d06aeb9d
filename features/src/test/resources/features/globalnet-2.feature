Feature: Globalnet 2.0 (seed 002_6472e28d3d9ff793.txt, "Globalnet 2.0: Enhancements to Globalnet Implementation")
  Global IPs only where they are needed: a cluster's egress IPs for every pod by default
  (ClusterGlobalEgressIP), namespace and pod-selector egress IPs on request (GlobalEgressIP, pod
  selector before namespace before cluster), and ingress IPs only for exported ClusterIP services and
  the pods of exported headless services (GlobalIngressIP). Two clusters with the same pod and
  service CIDRs, one gateway each; Periscope's default mode (globalnet.mode: v2).

  Background:
    Given the cluster set:
      """
      name: globalnet-2
      globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
      defaults: {cableDriver: vxlan}
      clusters:
        - name: east
          podCIDRs: [10.244.0.0/16]
          serviceCIDRs: [10.96.0.0/16]
          nodes:
            - {name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}
            - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}
          pods:
            - {name: web, node: east-worker, ip: 10.244.1.10, labels: {app: web}}
            - {name: report, namespace: ns1, node: east-worker, ip: 10.244.1.11, labels: {app: report}}
            - {name: db-0, namespace: ns1, node: east-worker, ip: 10.244.1.12, labels: {role: db}}
            - {name: audit, namespace: ns1, node: east-worker, ip: 10.244.1.13, labels: {app: audit}}
            - {name: node-agent, namespace: kube-system, node: east-worker, hostNetwork: true}
          services:
            - {name: api, clusterIP: 10.96.0.60, selector: {app: web}, ports: [{port: 8080}]}
          exports: [default/api]
          globalEgressIPs:
            - {name: ns-egressip, namespace: ns1, numberOfIPs: 1}
            - {name: db-pods, namespace: ns1, podSelector: {matchLabels: {role: db}}, numberOfIPs: 2}
        - name: west
          podCIDRs: [10.244.0.0/16]
          serviceCIDRs: [10.96.0.0/16]
          nodes:
            - {name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}
            - {name: west-worker, ip: 192.168.20.3, cniIP: 10.244.1.1}
          pods:
            - {name: nginx-1, node: west-worker, ip: 10.244.1.10, labels: {app: nginx}}
            - {name: http-0, namespace: myproject, node: west-worker, ip: 10.244.1.20, labels: {app: http}}
            - {name: http-1, namespace: myproject, node: west-gw, ip: 10.244.0.21, labels: {app: http}}
          services:
            - {name: nginx, clusterIP: 10.96.0.50, selector: {app: nginx}, ports: [{port: 8080}]}
            - {name: internal, clusterIP: 10.96.0.51, selector: {app: nginx}, ports: [{port: 9090, targetPort: 8080}]}
            - {name: http, namespace: myproject, headless: true, selector: {app: http}, ports: [{port: 80}]}
          exports: [default/nginx, myproject/http]
      """

  Rule: Every cluster gets egress IPs of its own, used by every pod by default (user story "Default scenario", sections "Proposal" and "Design Details")

    @kubernetes
    Scenario: Globalnet allocates the cluster's egress IPs when it is deployed
      The document calls the object cluster-default; upstream named it cluster-egress.submariner.io,
      as Periscope does. Upstream's default of 8 contiguous IPs avoids ephemeral port exhaustion.
      When the cluster set is deployed
      Then the global IPs of cluster east include:
        | object                                             | addresses           | status  |
        | ClusterGlobalEgressIP cluster-egress.submariner.io | 242.0.0.1-242.0.0.8 | Success |
      And the global IPs of cluster west include:
        | object                                             | addresses           | status  |
        | ClusterGlobalEgressIP cluster-egress.submariner.io | 242.1.0.1-242.1.0.8 | Success |
      And the nat table of east/east-gw has:
        | chain                | rule                                                                                    |
        | SM-GN-EGRESS-CLUSTER | -s 10.244.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.0.0.1-242.0.0.8 |

    @kubernetes
    Scenario: A pod without any GlobalEgressIP reaches an exported service of another cluster right away
      The cluster's egress IPs serve every pod at once (section "Caveats"): no per-pod address has to
      be allocated and programmed first. The SNAT range gives each flow one of its 8 addresses.
      When east/default/web connects to nginx.default.svc.clusterset.local:8080
      Then the destination is 242.1.255.254:8080
      And the connection is delivered
      And the packet goes:
        | node                 | step    | detail                                                                  | SRC                 | DST                |
        | east/default/web     | arrive  |                                                                         | 10.244.1.10         | 242.1.255.254:8080 |
        | east/east-gw         | mark    | SUBMARINER-GN-MARK: -d 242.1.0.0/16 -j MARK --set-xmark 0xc0000/0xc0000 | 10.244.1.10         | 242.1.255.254:8080 |
        | east/east-gw         | snat    | SM-GN-EGRESS-CLUSTER: ... --to-source 242.0.0.1-242.0.0.8               | 242.0.0.1-242.0.0.8 | 242.1.255.254:8080 |
        | west/west-gw         | dnat    | KUBE-SEP-... --to-destination 10.244.1.10:8080                          | 242.0.0.1-242.0.0.8 | 10.244.1.10:8080   |
        | west/default/nginx-1 | deliver |                                                                         | 242.0.0.1-242.0.0.8 | 10.244.1.10:8080   |
      And the reply goes:
        | node             | step    | SRC                | DST                 |
        | west/west-gw     | undnat  | 242.1.255.254:8080 | 242.0.0.1-242.0.0.8 |
        | east/east-gw     | unsnat  | 242.1.255.254:8080 | 10.244.1.10         |
        | east/default/web | deliver | 242.1.255.254:8080 | 10.244.1.10         |

    @kubernetes
    Scenario Outline: Host networking uses the cluster's egress IPs (<source>)
      When <source> connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                        | SRC                 | DST                |
        | east/east-gw | snat | SM-GN-EGRESS-CLUSTER: ... --to-source 242.0.0.1-242.0.0.8 | 242.0.0.1-242.0.0.8 | 242.1.255.254:8080 |

      Examples:
        | source                     |
        | east/east-worker           |
        | east/kube-system/node-agent |

    Scenario: The number of the cluster's egress IPs is configurable
      Given the cluster set:
        """
        name: two-egress-ips
        globalnet: {enabled: true}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            clusterEgressIPs: 2
            nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
          - name: west
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}]
        """
      When the cluster set is deployed
      Then the global IPs of cluster east are:
        | object                                             | addresses           |
        | ClusterGlobalEgressIP cluster-egress.submariner.io | 242.0.0.1-242.0.0.2 |
        | Gateway east-gw                                    | 242.0.255.254       |

    @kubernetes
    Scenario: Further ClusterGlobalEgressIP objects are marked with an error
      When the cluster set is deployed
      And an admin creates the ClusterGlobalEgressIP extra-egress in cluster east
      Then the status of the ClusterGlobalEgressIP extra-egress in cluster east is Error
      And the global IPs of cluster east include:
        | object                                             | addresses           |
        | ClusterGlobalEgressIP cluster-egress.submariner.io | 242.0.0.1-242.0.0.8 |

    @kubernetes
    Scenario: Only an admin creates ClusterGlobalEgressIP objects; users create GlobalEgressIP objects
      When a user without admin rights creates the ClusterGlobalEgressIP extra-egress in cluster east
      Then the request is forbidden
      When the same user creates the GlobalEgressIP own-egress in namespace ns1 of cluster east
      Then the GlobalEgressIP own-egress in namespace ns1 of cluster east is created

  Rule: A namespace can have egress IPs of its own (user story "Unique globalIP for a namespace")

    @kubernetes
    Scenario: Every pod of the namespace leaves with the namespace's egress IP
      When the cluster set is deployed
      Then the global IPs of cluster east include:
        | object                         | addresses     | status  |
        | GlobalEgressIP ns1/ns-egressip | 242.0.255.254 | Success |
      And on east/east-gw the rule for ns1/ns-egressip in chain SM-GN-EGRESS-NS matches the hash:net ipset SM-GN-7UWIRC3FINK6KY6B64K2JXSSZ holding 10.244.1.11, 10.244.1.12 and 10.244.1.13
      When east/ns1/report connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                           | SRC           | DST                |
        | east/east-gw | snat | SM-GN-EGRESS-NS: ... --to-source 242.0.255.254   | 242.0.255.254 | 242.1.255.254:8080 |
      When east/ns1/audit connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                           | SRC           | DST                |
        | east/east-gw | snat | SM-GN-EGRESS-NS: ... --to-source 242.0.255.254   | 242.0.255.254 | 242.1.255.254:8080 |

  Rule: Selected pods can have egress IPs of their own (user story "Unique globalIP for selected Pods in a namespace")

    @kubernetes
    Scenario: The selected pods leave with their own two egress IPs
      A block of IPs is the lowest contiguous free block: the cluster's 8 took 242.0.0.1-242.0.0.8.
      When the cluster set is deployed
      Then the global IPs of cluster east include:
        | object                     | addresses             | status  |
        | GlobalEgressIP ns1/db-pods | 242.0.0.9-242.0.0.10  | Success |
      And on east/east-gw the rule for ns1/db-pods in chain SM-GN-EGRESS-PODS matches the hash:net ipset SM-GN-KOSF2JYAXQXSCLY3CSZKA232H holding 10.244.1.12
      When east/ns1/db-0 connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                                 | SRC                  | DST                |
        | east/east-gw | snat | SM-GN-EGRESS-PODS: ... --to-source 242.0.0.9-242.0.0.10 | 242.0.0.9-242.0.0.10 | 242.1.255.254:8080 |

    @kubernetes
    Scenario: Deleting a GlobalEgressIP releases its egress IPs, its rule and its ipset, and its pods leave with the namespace's
      In the lab the deletion goes to the running lab (lab apply), so the gateway's agent must remove
      the rule and destroy the ipset it programmed, and leave someone else's rule in the same built-in
      chain; the kernel is read afterwards.
      When the cluster set is deployed
      And someone else's rule "-s 192.0.2.10/32 -j ACCEPT" is appended to chain POSTROUTING of the nat table of east/east-gw
      And the GlobalEgressIP ns1/db-pods of cluster east is deleted
      Then cluster east holds no global IP for "GlobalEgressIP ns1/db-pods"
      And the nat table of east/east-gw has no rule like "... --match-set SM-GN-KOSF2JYAXQXSCLY3CSZKA232H src ..."
      And east/east-gw has no ipset SM-GN-KOSF2JYAXQXSCLY3CSZKA232H
      And someone else's rule "-s 192.0.2.10/32 -j ACCEPT" is still in chain POSTROUTING of the nat table of east/east-gw
      When east/ns1/db-0 connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail             | SRC           | DST                |
        | east/east-gw | snat | SM-GN-EGRESS-NS: ... | 242.0.255.254 | 242.1.255.254:8080 |

    @kubernetes
    Scenario Outline: Pod-selector egress IPs take precedence over the namespace's, which take precedence over the cluster's (<source>)
      When <source> connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail         | SRC       | DST                |
        | east/east-gw | snat | <chain>: ...   | <address> | 242.1.255.254:8080 |

      Examples:
        | source           | chain                | address              |
        | east/ns1/db-0    | SM-GN-EGRESS-PODS    | 242.0.0.9-242.0.0.10 |
        | east/ns1/report  | SM-GN-EGRESS-NS      | 242.0.255.254        |
        | east/default/web | SM-GN-EGRESS-CLUSTER | 242.0.0.1-242.0.0.8  |

    @kubernetes
    Scenario: The egress chains are tried in precedence order and use ipsets
      When the cluster set is deployed
      Then the nat table of east/east-gw has:
        | chain                  | rule                                                                                                                           |
        | POSTROUTING            | -j SUBMARINER-POSTROUTING                                                                                                      |
        | SUBMARINER-POSTROUTING | -j SUBMARINER-GN-EGRESS                                                                                                        |
        | SUBMARINER-GN-EGRESS   | -j SUBMARINER-GN-MARK                                                                                                          |
        | SUBMARINER-GN-EGRESS   | -j SM-GN-EGRESS-PODS                                                                                                           |
        | SUBMARINER-GN-EGRESS   | -j SM-GN-EGRESS-HDLS-PODS                                                                                                      |
        | SUBMARINER-GN-EGRESS   | -j SM-GN-EGRESS-NS                                                                                                             |
        | SUBMARINER-GN-EGRESS   | -j SM-GN-EGRESS-CLUSTER                                                                                                        |
        | SM-GN-EGRESS-PODS      | -m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-KOSF2JYAXQXSCLY3CSZKA232H src -j SNAT --to-source 242.0.0.9-242.0.0.10 |
        | SM-GN-EGRESS-NS        | -m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-7UWIRC3FINK6KY6B64K2JXSSZ src -j SNAT --to-source 242.0.255.254        |

  Rule: An exported ClusterIP service gets a global IP for ingress (user story "GlobalIP for exported ClusterIP service")

    @kubernetes
    Scenario: Only exported services get a GlobalIngressIP
      When the cluster set is deployed
      Then the global IPs of cluster west include:
        | object                            | addresses     | status  |
        | GlobalIngressIP default/svc-nginx | 242.1.255.254 | Success |
      And cluster west holds no global IP for "GlobalIngressIP default/svc-internal"
      And east/default/web resolves nginx.default.svc.clusterset.local to 242.1.255.254
      And east/default/web resolves internal.default.svc.clusterset.local to nothing

    @kubernetes
    Scenario: Traffic to the service's global IP reaches a backend pod and the answer comes from the global IP
      When east/ns1/report connects to nginx.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node                 | step    | detail                                         | SRC           | DST                |
        | west/west-gw         | arrive  | in vxlan-tunnel                                | 242.0.255.254 | 242.1.255.254:8080 |
        | west/west-gw         | dnat    | KUBE-SEP-... --to-destination 10.244.1.10:8080 | 242.0.255.254 | 10.244.1.10:8080   |
        | west/default/nginx-1 | deliver |                                                | 242.0.255.254 | 10.244.1.10:8080   |
      And the reply goes:
        | node            | step    | SRC                | DST           |
        | west/west-gw    | undnat  | 242.1.255.254:8080 | 242.0.255.254 |
        | east/ns1/report | deliver | 242.1.255.254:8080 | 10.244.1.11   |

    @kubernetes
    Scenario: kube-proxy DNATs the service's global IP as an external IP, without Globalnet jumping into kube-proxy's chains
      Work item 8 of the document: Globalnet creates an internal service holding the global IP as an
      external IP, so kube-proxy's own rules DNAT it: the external IP's KUBE-EXT chain marks the
      traffic for masquerading and jumps to the service's KUBE-SVC chain.
      When the cluster set is deployed
      Then the nat table of west/west-gw has:
        | chain         | rule                                                                   |
        | KUBE-SERVICES | -d 242.1.255.254/32 -p tcp ... external IP" -m tcp --dport 8080 -j KUBE-EXT-... |
      And the nat table of west/west-gw has no rule like "... -j KUBE-SVC-..." in chain SUBMARINER-GN-INGRESS
      And the nat table of west/west-gw has no rule like "... -j KUBE-EXT-..." in chain SUBMARINER-GN-INGRESS

    Scenario: Users do not create GlobalIngressIP objects: Globalnet does
      Given the cluster set:
        """
        name: user-ingress-ip
        globalnet: {enabled: true}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
            globalIngressIPs:
              - {name: svc-mine, namespace: default}
        """
      When the cluster set is deployed
      Then the cluster set is refused with:
        | field                        | problem       |
        | clusters[0].globalIngressIPs | unknown field |

  Rule: Every pod of an exported headless service gets a global IP for ingress and egress (user story "GlobalIP for exported Headless Service")

    @kubernetes
    Scenario: Each backend pod of the headless service gets its own GlobalIngressIP, discoverable through Lighthouse
      When the cluster set is deployed
      Then the global IPs of cluster west include:
        | object                               | addresses     | status  |
        | GlobalIngressIP myproject/pod-http-0 | 242.1.255.253 | Success |
        | GlobalIngressIP myproject/pod-http-1 | 242.1.255.252 | Success |
      And east/default/web resolves http-0.west.http.myproject.svc.clusterset.local to 242.1.255.253
      And east/default/web resolves http-1.west.http.myproject.svc.clusterset.local to 242.1.255.252

    @kubernetes
    Scenario: A remote client connects to a headless pod at its global IP
      When east/ns1/report connects to http-0.west.http.myproject.svc.clusterset.local:80
      Then the connection is delivered
      And the packet goes:
        | node                  | step    | detail                                                     | SRC           | DST            |
        | west/west-gw          | dnat    | SUBMARINER-GN-INGRESS: -d 242.1.255.253/32 ... --to-destination 10.244.1.20 | 242.0.255.254 | 10.244.1.20:80 |
        | west/myproject/http-0 | deliver |                                                            | 242.0.255.254 | 10.244.1.20:80 |
      And the reply goes:
        | node            | step    | SRC              | DST         |
        | west/west-gw    | undnat  | 242.1.255.253:80 | 242.0.255.254 |
        | east/ns1/report | deliver | 242.1.255.253:80 | 10.244.1.11 |

    @kubernetes
    Scenario: A headless pod leaves with the same global IP it is reached at
      When west/myproject/http-0 connects to api.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                                                   | SRC           | DST                |
        | west/west-gw | snat | SM-GN-EGRESS-HDLS-PODS: -s 10.244.1.20/32 ... --to-source 242.1.255.253 | 242.1.255.253 | 242.0.255.253:8080 |

    @kubernetes
    Scenario: A pod-selector GlobalEgressIP matching the headless pods takes precedence for their egress
      The document's http-pods GlobalEgressIP. Egress objects are allocated before ingress ones, so
      in this cluster set the service and the headless pods get the next addresses down.
      Given cluster west also has the GlobalEgressIP:
        | name      | namespace | podSelector | numberOfIPs |
        | http-pods | myproject | app=http    | 1           |
      When the cluster set is deployed
      Then the global IPs of cluster west include:
        | object                               | addresses     | status  |
        | GlobalEgressIP myproject/http-pods   | 242.1.255.254 | Success |
        | GlobalIngressIP myproject/pod-http-0 | 242.1.255.252 | Success |
      When west/myproject/http-0 connects to api.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                           | SRC           | DST                |
        | west/west-gw | snat | SM-GN-EGRESS-PODS: ... --to-source 242.1.255.254 | 242.1.255.254 | 242.0.255.253:8080 |
      When east/default/web connects to http-0.west.http.myproject.svc.clusterset.local:80
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                               | SRC                 | DST            |
        | west/west-gw | dnat | -d 242.1.255.252/32 ... --to-destination 10.244.1.20 | 242.0.0.1-242.0.0.8 | 10.244.1.20:80 |
      And the reply goes:
        | node             | step    | SRC              | DST         |
        | east/default/web | deliver | 242.1.255.252:80 | 10.244.1.10 |

    @kubernetes
    Scenario: A namespace GlobalEgressIP matching the headless pods takes precedence for their egress
      The document says a GlobalEgressIP that matches the namespace of the headless pods wins over
      their own global IP. The chains keep upstream's jump order (SM-GN-EGRESS-HDLS-PODS before
      SM-GN-EGRESS-NS); the pods covered by the namespace's GlobalEgressIP simply get no rule in
      SM-GN-EGRESS-HDLS-PODS (see docs/plan.md). They keep their own global IPs for ingress.
      Given cluster west also has the GlobalEgressIP:
        | name         | namespace | podSelector | numberOfIPs |
        | myproject-ns | myproject |             | 1           |
      When the cluster set is deployed
      Then the global IPs of cluster west include:
        | object                                | addresses     | status  |
        | GlobalEgressIP myproject/myproject-ns | 242.1.255.254 | Success |
        | GlobalIngressIP myproject/pod-http-0  | 242.1.255.252 | Success |
      And the nat table of west/west-gw has no rule like "-s 10.244.1.20/32 ..." in chain SM-GN-EGRESS-HDLS-PODS
      When west/myproject/http-0 connects to api.default.svc.clusterset.local:8080
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                          | SRC           | DST                |
        | west/west-gw | snat | SM-GN-EGRESS-NS: ... --to-source 242.1.255.254  | 242.1.255.254 | 242.0.255.253:8080 |
      When east/default/web connects to http-0.west.http.myproject.svc.clusterset.local:80
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                               | SRC                 | DST            |
        | west/west-gw | dnat | -d 242.1.255.252/32 ... --to-destination 10.244.1.20 | 242.0.0.1-242.0.0.8 | 10.244.1.20:80 |

  Rule: Egress and ingress IPs come from the cluster's GlobalCIDR, within Globalnet's limits (section "Design Details")

    @kubernetes
    Scenario: Every global IP lies in the cluster's GlobalCIDR and is held once
      Single IPs are taken from the top of the pool, blocks from the bottom.
      When the cluster set is deployed
      Then the global IPs of cluster east are:
        | object                                             | addresses            |
        | ClusterGlobalEgressIP cluster-egress.submariner.io | 242.0.0.1-242.0.0.8  |
        | GlobalEgressIP ns1/ns-egressip                     | 242.0.255.254        |
        | GlobalEgressIP ns1/db-pods                         | 242.0.0.9-242.0.0.10 |
        | GlobalIngressIP default/svc-api                    | 242.0.255.253        |
        | Gateway east-gw                                    | 242.0.255.252        |
      And every global IP of cluster east lies inside its global CIDR but is neither its network nor its broadcast address
      And no global IP of cluster east is held twice
      And every global IP of cluster west lies inside its global CIDR but is neither its network nor its broadcast address
      And no global IP of cluster west is held twice

    Scenario: A request the pool cannot satisfy gets an error status and no address
      Given the cluster set:
        """
        name: small-pool
        globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 16}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
            pods: [{name: db-0, namespace: ns1, node: east-gw, ip: 10.244.0.12, labels: {role: db}}]
            globalEgressIPs:
              - {name: db-pods, namespace: ns1, podSelector: {matchLabels: {role: db}}, numberOfIPs: 10}
          - name: west
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}]
        """
      When the cluster set is deployed
      Then cluster east has the global CIDR 242.0.0.0/28
      And the global IPs of cluster east are:
        | object                                             | addresses           | status                 |
        | ClusterGlobalEgressIP cluster-egress.submariner.io | 242.0.0.1-242.0.0.8 | Success                |
        | GlobalEgressIP ns1/db-pods                         |                     | IPPoolAllocationFailed |
        | Gateway east-gw                                    | 242.0.0.14          | Success                |
      And the status message of "GlobalEgressIP ns1/db-pods" in cluster east says "10"
      And the nat table of east/east-gw has no rule like '... --match-set SM-GN-KOSF2JYAXQXSCLY3CSZKA232H src ...'

    @kubernetes
    Scenario: A GlobalEgressIP asking for no IPs gets none
      Given cluster east also has the GlobalEgressIP:
        | name    | namespace | podSelector | numberOfIPs |
        | nothing | default   | app=web     | 0           |
      When the cluster set is deployed
      Then the global IPs of cluster east include:
        | object                         | addresses | status    |
        | GlobalEgressIP default/nothing |           | ZeroInput |

    Scenario: Numbers of IPs outside 0 to 20 are refused
      Given the cluster set:
        """
        name: too-many
        globalnet: {enabled: true}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            clusterEgressIPs: 21
            nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
            globalEgressIPs:
              - {name: ns-egressip, namespace: ns1, numberOfIPs: 21}
        """
      When the cluster set is deployed
      Then the cluster set is refused with:
        | field                                  | problem |
        | clusters[0].clusterEgressIPs           | 21      |
        | clusters[0].globalEgressIPs[0].numberOfIPs | 21  |

    @kubernetes
    Scenario: Allocated global IPs survive a restart of Globalnet
      When the cluster set is deployed
      And Globalnet restarts in cluster east
      Then the global IPs of cluster east include:
        | object                     | addresses            |
        | GlobalEgressIP ns1/db-pods | 242.0.0.9-242.0.0.10 |

  Rule: The active gateway keeps a global IP of its own, which remote health checks ping (section "Summary")
    The document keeps the nodes' global IPs in the new implementation; upstream keeps the active
    gateway's (its node controller), publishes it as the Endpoint's healthCheckIP and DNATs ICMP to it
    to the gateway's CNI address. The seeds' addresses come first: the gateways take theirs after
    every other object, the next single addresses from the top.

    @kubernetes
    Scenario: The active gateway has a global IP of its own, after every object, published as its Endpoint's healthCheckIP
      When the cluster set is deployed
      Then the global IPs of cluster east include:
        | object       | addresses     | status  |
        | Gateway east-gw | 242.0.255.252 | Success |
      And the global IPs of cluster west include:
        | object       | addresses     | status  |
        | Gateway west-gw | 242.1.255.251 | Success |
      And the Endpoints are:
        | cluster | gateway | subnets      | allocatedIPs | healthCheckIP |
        | east    | east-gw | 242.0.0.0/16 |              | 242.0.255.252 |
        | west    | west-gw | 242.1.0.0/16 |              | 242.1.255.251 |

    @kubernetes
    Scenario: A remote gateway's health-check ping is DNATed to the gateway's CNI address and answered
      When the cluster set is deployed
      Then the nat table of west/west-gw has:
        | chain                 | rule                                                            |
        | SUBMARINER-GN-INGRESS | -d 242.1.255.251/32 -p icmp -j DNAT --to-destination 10.244.0.1 |
      When east/east-gw pings 242.1.255.251
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                                                                 | SRC                 | DST           |
        | east/east-gw | snat | SM-GN-EGRESS-CLUSTER: ... --to-source 242.0.0.1-242.0.0.8                              | 242.0.0.1-242.0.0.8 | 242.1.255.251 |
        | west/west-gw | dnat | SUBMARINER-GN-INGRESS: -d 242.1.255.251/32 -p icmp -j DNAT --to-destination 10.244.0.1 | 242.0.0.1-242.0.0.8 | 10.244.0.1    |
        | west/west-gw | deliver |                                                                                     | 242.0.0.1-242.0.0.8 | 10.244.0.1    |

  Rule: Fewer global IPs mean fewer rules on the gateway (sections "Pros" and "Backward Compatibility")

    Scenario: Globalnet 2.0 programs fewer rules on the gateway than the first design
      Twelve pods and three exported services: Globalnet 2.0 needs no rule per pod, the first
      design one SNAT rule per pod and one ingress rule per exported service.
      Given the cluster set:
        """
        name: rule-count
        globalnet: {enabled: true}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes:
              - {name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}
              - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}
            pods:
              - {name: web-1, node: east-worker, ip: 10.244.1.11, labels: {app: web}}
              - {name: web-2, node: east-worker, ip: 10.244.1.12, labels: {app: web}}
              - {name: web-3, node: east-worker, ip: 10.244.1.13, labels: {app: web}}
              - {name: web-4, node: east-worker, ip: 10.244.1.14, labels: {app: web}}
              - {name: api-1, node: east-worker, ip: 10.244.1.21, labels: {app: api}}
              - {name: api-2, node: east-worker, ip: 10.244.1.22, labels: {app: api}}
              - {name: api-3, node: east-worker, ip: 10.244.1.23, labels: {app: api}}
              - {name: api-4, node: east-worker, ip: 10.244.1.24, labels: {app: api}}
              - {name: db-1, node: east-worker, ip: 10.244.1.31, labels: {app: db}}
              - {name: db-2, node: east-worker, ip: 10.244.1.32, labels: {app: db}}
              - {name: db-3, node: east-worker, ip: 10.244.1.33, labels: {app: db}}
              - {name: db-4, node: east-worker, ip: 10.244.1.34, labels: {app: db}}
            services:
              - {name: web, clusterIP: 10.96.0.10, selector: {app: web}, ports: [{port: 80}]}
              - {name: api, clusterIP: 10.96.0.20, selector: {app: api}, ports: [{port: 8080}]}
              - {name: db, clusterIP: 10.96.0.30, selector: {app: db}, ports: [{port: 5432}]}
            exports: [default/web, default/api, default/db]
          - name: west
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}]
        """
      When the cluster set is deployed
      # the jumps to the mark and five SNAT chains, the mark, the cluster SNAT from the pod and the service CIDR,
      # and the DNAT of the gateway's own global IP for health checks
      Then the Globalnet chains of east/east-gw hold 10 rules
      When the cluster set runs Globalnet's first design
      # 12 pods and 2 nodes with a global IP each, 3 services, the jump to the mark chain, the mark,
      # and the DNAT of the gateway's own global IP for health checks
      Then the Globalnet chains of east/east-gw hold 20 rules

  Rule: Pods talk to remote pods directly only without Globalnet (section "Alternatives")

    @kubernetes
    Scenario: Without Globalnet, clusters with their own CIDRs connect pod to pod with unchanged addresses
      Given the cluster set:
        """
        name: vanilla
        defaults: {cableDriver: vxlan}
        clusters:
          - name: east
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes:
              - {name: east-gw, ip: 192.168.10.2, cniIP: 10.10.0.1, gateway: true}
              - {name: east-worker, ip: 192.168.10.3, cniIP: 10.10.1.1}
            pods: [{name: web, node: east-worker, ip: 10.10.1.10}]
          - name: west
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes:
              - {name: west-gw, ip: 192.168.20.2, cniIP: 10.20.0.1, gateway: true}
              - {name: west-worker, ip: 192.168.20.3, cniIP: 10.20.1.1}
            pods: [{name: nginx-1, node: west-worker, ip: 10.20.1.10}]
        """
      When east/default/web connects to west/default/nginx-1:8080
      Then the connection is delivered
      And no address is translated outside the gateways
      And the packet goes:
        | node                 | step    | SRC        | DST             |
        | east/east-gw         | depart  | 10.10.1.10 | 10.20.1.10:8080 |
        | west/west-gw         | arrive  | 10.10.1.10 | 10.20.1.10:8080 |
        | west/default/nginx-1 | deliver | 10.10.1.10 | 10.20.1.10:8080 |
