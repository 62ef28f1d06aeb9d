Feature: Globalnet, the first design (seed 000_74ce4ad56a2c3811.txt, "Globalnet Controller")
  Clusters whose pod and service CIDRs overlap are joined through a virtual Global Private Network:
  every cluster gets a GlobalCIDR, every pod and every exported service a global IP from it, and the
  gateways translate between cluster addresses and global IPs. Periscope keeps this first design as
  `globalnet.mode: legacy`, next to Globalnet 2.0 (globalnet-2.feature).

  Background:
    Given the cluster set:
      """
      name: legacy-globalnet
      globalnet: {enabled: true, cidr: 169.254.0.0/16, clusterSize: 256, mode: legacy}
      defaults: {cableDriver: vxlan}
      clusters:
        - name: east
          podCIDRs: [10.244.0.0/16]
          serviceCIDRs: [10.96.0.0/16]
          nodes:
            - {name: east-gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}
            - {name: east-worker, ip: 172.18.1.3, cniIP: 10.244.1.1}
          pods:
            - {name: client, node: east-worker, ip: 10.244.1.10}
            - {name: node-agent, namespace: kube-system, node: east-worker, hostNetwork: true}
        - name: west
          podCIDRs: [10.244.0.0/16]
          serviceCIDRs: [10.96.0.0/16]
          nodes:
            - {name: west-gw, ip: 172.18.2.2, cniIP: 10.244.0.1, gateway: true}
            - {name: west-worker, ip: 172.18.2.3, cniIP: 10.244.1.1}
          pods:
            - {name: nginx-0, node: west-worker, ip: 10.244.1.10, labels: {app: nginx}}
          services:
            - {name: nginx, clusterIP: 10.96.0.10, selector: {app: nginx}, ports: [{port: 80, targetPort: 8080}]}
            - {name: internal, clusterIP: 10.96.0.11, selector: {app: nginx}, ports: [{port: 81, targetPort: 8080}]}
          exports: [default/nginx]
      """

  Rule: Overlapping CIDRs need Globalnet (section "Introduction")

    Scenario: Clusters with overlapping CIDRs are refused without Globalnet
      Given the cluster set:
        """
        name: overlapping
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: east-gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}]
          - name: west
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: west-gw, ip: 172.18.2.2, cniIP: 10.244.0.1, gateway: true}]
        """
      When the cluster set is deployed
      Then the cluster set is refused with:
        | field                    | problem                                    |
        | clusters[1].podCIDRs[0]     | overlaps cluster east's podCIDRs ... Globalnet is off |
        | clusters[1].serviceCIDRs[0] | overlaps cluster east's serviceCIDRs ... Globalnet is off |

    @kubernetes
    Scenario: The same clusters are accepted with Globalnet
      When the cluster set is deployed
      Then the cluster set is accepted

  Rule: Every cluster gets a GlobalCIDR from the Global Private Network (section "Architecture")

    @kubernetes
    Scenario: The broker hands out GlobalCIDRs in cluster order
      When the cluster set is deployed
      Then cluster east has the global CIDR 169.254.0.0/24
      And cluster west has the global CIDR 169.254.1.0/24

    @kubernetes
    Scenario: A GlobalCIDR given for a cluster (subctl join --globalnet-cidr) is kept
      Given the cluster set:
        """
        name: chosen-cidr
        globalnet: {enabled: true, cidr: 169.254.0.0/16, clusterSize: 256, mode: legacy}
        # The cable plays no part in the hand-out; vxlan is one every backend builds as itself.
        defaults: {cableDriver: vxlan}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            globalCIDR: 169.254.9.0/24
            nodes: [{name: east-gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}]
          - name: west
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: west-gw, ip: 172.18.2.2, cniIP: 10.244.0.1, gateway: true}]
        """
      When the cluster set is deployed
      Then cluster east has the global CIDR 169.254.9.0/24
      And cluster west has the global CIDR 169.254.0.0/24

    Scenario: A globalnet-cidr is not used when Globalnet is off
      The document says the supplied CIDR is ignored; Periscope refuses it so the user learns that
      it has no effect.
      Given the cluster set:
        """
        name: ignored-cidr
        clusters:
          - name: east
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            globalCIDR: 169.254.9.0/24
            nodes: [{name: east-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
        """
      When the cluster set is deployed
      Then the cluster set is refused with:
        | field                  | problem   |
        | clusters[0].globalCIDR | Globalnet |

  Rule: Every pod and every exported service gets a global IP (sections "Architecture" and "IP Address Manager (IPAM)")

    @kubernetes
    Scenario: Pods, exported services and nodes get a global IP from their cluster's GlobalCIDR
      A non-exported service gets none. Single addresses come from the top of the pool.
      When the cluster set is deployed
      Then the global IPs of cluster west are:
        | object              | addresses     |
        | service default/nginx | 169.254.1.254 |
        | pod default/nginx-0   | 169.254.1.253 |
        | node west-gw          | 169.254.1.252 |
        | node west-worker      | 169.254.1.251 |
      And the global IPs of cluster east are:
        | object             | addresses     |
        | pod default/client | 169.254.0.254 |
        | node east-gw       | 169.254.0.253 |
        | node east-worker   | 169.254.0.252 |

    Scenario: The pool is the GlobalCIDR without its network and broadcast addresses
      A /29 holds 8 addresses, of which 6 can be given out: the seventh requester gets none and an
      error status.
      Given the cluster set:
        """
        name: small-pool
        globalnet: {enabled: true, cidr: 169.254.0.0/16, clusterSize: 8, mode: legacy}
        clusters:
          - name: east
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: east-gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}]
            pods:
              - {name: p1, node: east-gw, ip: 10.244.0.11}
              - {name: p2, node: east-gw, ip: 10.244.0.12}
              - {name: p3, node: east-gw, ip: 10.244.0.13}
              - {name: p4, node: east-gw, ip: 10.244.0.14}
              - {name: p5, node: east-gw, ip: 10.244.0.15}
              - {name: p6, node: east-gw, ip: 10.244.0.16}
          - name: west
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes: [{name: west-gw, ip: 172.18.2.2, cniIP: 10.244.0.1, gateway: true}]
        """
      When the cluster set is deployed
      Then cluster east has the global CIDR 169.254.0.0/29
      And every global IP of cluster east lies inside its global CIDR but is neither its network nor its broadcast address
      And the global IPs of cluster east are:
        | object         | addresses   | status                 |
        | pod default/p1 | 169.254.0.6 | Success                |
        | pod default/p2 | 169.254.0.5 | Success                |
        | pod default/p3 | 169.254.0.4 | Success                |
        | pod default/p4 | 169.254.0.3 | Success                |
        | pod default/p5 | 169.254.0.2 | Success                |
        | pod default/p6 | 169.254.0.1 | Success                |
        | node east-gw   |             | IPPoolAllocationFailed |
      And cluster east has 0 free global IPs

    @kubernetes
    Scenario: Deleting an export releases the service's global IP and its ingress rule
      In the lab the deletion goes to the running lab (lab apply): the gateway's agent must remove the
      rule it programmed and leave someone else's rule in the same built-in chain; the kernel is read
      afterwards.
      When the cluster set is deployed
      Then cluster west has 250 free global IPs
      When someone else's rule "-d 192.0.2.10/32 -j ACCEPT" is appended to chain PREROUTING of the nat table of west/west-gw
      And the export default/nginx of cluster west is deleted
      Then cluster west holds no global IP for "service default/nginx"
      And cluster west has 251 free global IPs
      And the nat table of west/west-gw has no rule like "-d 169.254.1.254/32 ... -j KUBE-SVC-..."
      And someone else's rule "-d 192.0.2.10/32 -j ACCEPT" is still in chain PREROUTING of the nat table of west/west-gw
      And east/default/client resolves nginx.default.svc.clusterset.local to nothing

    @kubernetes
    Scenario: Deleting a pod releases its global IP and its egress rule
      When the cluster set is deployed
      Then cluster east has 251 free global IPs
      When the pod default/client of cluster east is deleted
      Then cluster east holds no global IP for "pod default/client"
      And cluster east has 252 free global IPs
      And the nat table of east/east-gw has no rule like "-s 10.244.1.10/32 ... -j SNAT --to-source 169.254.0.254"

    @kubernetes
    Scenario: Pods and exported services are annotated with their global IP
      When the cluster set is deployed
      Then the pod default/nginx-0 of cluster west is annotated submariner.io/globalIp=169.254.1.253
      And the service default/nginx of cluster west is annotated submariner.io/globalIp=169.254.1.254

  Rule: The gateways translate between cluster addresses and global IPs (sections "Architecture" and "Globalnet")

    @kubernetes
    Scenario: Globalnet creates its chains on the gateway
      When the cluster set is deployed
      Then the nat table of east/east-gw has:
        | chain                  | rule                                                  |
        | PREROUTING             | -j SUBMARINER-GN-INGRESS                              |
        | POSTROUTING            | -j SUBMARINER-POSTROUTING                             |
        | SUBMARINER-POSTROUTING | -j SUBMARINER-GN-EGRESS                               |
        | SUBMARINER-GN-EGRESS   | -j SUBMARINER-GN-MARK                                 |
        | SUBMARINER-GN-MARK     | -d 169.254.1.0/24 -j MARK --set-xmark 0xc0000/0xc0000 |
      And the nat table of east/east-worker has no chain SUBMARINER-GN-INGRESS
      And the nat table of east/east-worker has no chain SUBMARINER-GN-EGRESS

    @kubernetes
    Scenario: A pod with a global IP gets an egress SNAT rule on the gateway
      When the cluster set is deployed
      Then the nat table of east/east-gw has:
        | chain                | rule                                                                               |
        | SUBMARINER-GN-EGRESS | -s 10.244.1.10/32 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 169.254.0.254 |

    @kubernetes
    Scenario: An exported service with a global IP gets an ingress rule into its kube-proxy chain
      When the cluster set is deployed
      Then the nat table of west/west-gw has:
        | chain                 | rule                                                                           |
        | SUBMARINER-GN-INGRESS | -d 169.254.1.254/32 -p tcp -m tcp --dport 80 -j KUBE-SVC-... |

    @kubernetes
    Scenario: A pod reaches a remote service through global IPs, translated only on the gateways
      When east/default/client connects to nginx.default.svc.clusterset.local:80
      Then the destination is 169.254.1.254:80
      And the connection is delivered
      And no address is translated outside the gateways
      And the packet goes:
        | node                 | step    | detail                                    | SRC           | DST              |
        | east/default/client  | arrive  |                                           | 10.244.1.10   | 169.254.1.254:80 |
        | east/east-gw         | snat    | SUBMARINER-GN-EGRESS ... --to-source 169.254.0.254 | 169.254.0.254 | 169.254.1.254:80 |
        | west/west-gw         | dnat    | KUBE-SEP-... --to-destination 10.244.1.10:8080 | 169.254.0.254 | 10.244.1.10:8080 |
        | west/default/nginx-0 | deliver |                                           | 169.254.0.254 | 10.244.1.10:8080 |
      And the reply goes:
        | node                 | step    | detail | SRC              | DST           |
        | west/west-gw         | undnat  |        | 169.254.1.254:80 | 169.254.0.254 |
        | east/east-gw         | unsnat  |        | 169.254.1.254:80 | 10.244.1.10   |
        | east/default/client  | deliver |        | 169.254.1.254:80 | 10.244.1.10   |

  Rule: Globalnet connects pods to remote services, not to remote pods (notice under "Architecture")

    @simulator-only
    Scenario: A remote pod's address is the local cluster's own
      With overlapping CIDRs, west's nginx-0 has the address of east's own client: the packet never
      leaves east.
      Simulator only: the packet never leaves the client's namespace (it goes to the client's own address,
      over lo), and the lab's captures watch only the interfaces between hosts, so the probe sees no hop.
      When east/default/client connects to west/default/nginx-0:8080
      Then no packet reaches cluster west

    @kubernetes
    Scenario: A remote pod's global IP accepts no connection
      When east/default/client connects to 169.254.1.253:8080
      Then the connection is not delivered
      And no path crosses west/default/nginx-0

  Rule: Nodes and host-network pods reach remote services through global IPs (section "submariner-globalnet")

    @kubernetes
    Scenario: A node reaches a remote service through its global IP
      The node's own traffic leaves with its CNI address (10.244.1.1) and is SNATed to the node's
      global IP on the gateway.
      When east/east-worker connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                                 | SRC           | DST              |
        | east/east-gw | snat | --to-source 169.254.0.252              | 169.254.0.252 | 169.254.1.254:80 |

    @kubernetes
    Scenario: A host-network pod reaches a remote service through its node's global IP
      When east/kube-system/node-agent connects to nginx.default.svc.clusterset.local:80
      Then the connection is delivered
      And the packet goes:
        | node         | step | detail                    | SRC           | DST              |
        | east/east-gw | snat | --to-source 169.254.0.252 | 169.254.0.252 | 169.254.1.254:80 |

  Rule: Lighthouse answers with global IPs (section "Service Discovery - Lighthouse")

    @kubernetes
    Scenario: An exported service resolves to its global IP in every cluster
      When the cluster set is deployed
      Then east/default/client resolves nginx.default.svc.clusterset.local to 169.254.1.254
      And west/default/nginx-0 resolves nginx.default.svc.clusterset.local to 169.254.1.254

  Rule: Each cluster's own DNS server answers over the wire with global IPs, and leaves out what a pod cannot reach (section "Service Discovery - Lighthouse"; issue 17)
    Every cluster runs Periscope's DNS server for clusterset.local (docs/dns.md). With the simulator these
    scenarios start a real server for the asking pod's cluster on 127.0.0.1 and ask it over UDP with the
    JDK's own DNS client, a third implementation next to the server's and the simulator's. In the lab
    the server runs inside the cluster, in its supervisor, and dig asks it from the pod's own namespace
    through the pod's resolv.conf, the cluster's DNS Service address and the node's DNAT.

    Background:
      Given the cluster set:
        """
        name: discovery
        globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
        defaults: {cableDriver: vxlan}
        clusters:
          - name: east
            labels: {role: hub}
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes:
              - {name: east-gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}
              - {name: east-worker, ip: 172.18.1.3, cniIP: 10.244.1.1}
            pods:
              - {name: client, node: east-worker, ip: 10.244.1.10}
          - name: west
            labels: {role: spoke}
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes:
              - {name: west-gw, ip: 172.18.2.2, cniIP: 10.244.0.1, gateway: true}
              - {name: west-worker, ip: 172.18.2.3, cniIP: 10.244.1.1}
            pods:
              - {name: client, node: west-worker, ip: 10.244.1.9}
              - {name: nginx-0, node: west-worker, ip: 10.244.1.10, labels: {app: nginx}}
              - {name: http-0, namespace: myproject, node: west-worker, ip: 10.244.1.20, labels: {app: http}}
              - {name: http-1, namespace: myproject, node: west-worker, ip: 10.244.1.21, labels: {app: http}}
            services:
              - {name: nginx, clusterIP: 10.96.0.10, selector: {app: nginx}, ports: [{name: http, port: 80, targetPort: 8080}]}
              - {name: http, namespace: myproject, headless: true, selector: {app: http}, ports: [{name: web, port: 80}]}
            exports: [default/nginx, myproject/http]
          - name: north
            labels: {role: spoke}
            podCIDRs: [10.244.0.0/16]
            serviceCIDRs: [10.96.0.0/16]
            nodes:
              - {name: north-gw, ip: 172.18.3.2, cniIP: 10.244.0.1, gateway: true}
              - {name: north-worker, ip: 172.18.3.3, cniIP: 10.244.1.1}
            pods:
              - {name: db-0, namespace: ns1, node: north-worker, ip: 10.244.1.30, labels: {app: db}}
            services:
              - {name: db, namespace: ns1, clusterIP: 10.96.0.30, selector: {app: db}, ports: [{port: 5432}]}
            exports: [ns1/db]
        connectivityPolicies:
          - {name: hub-and-spokes, leftClusterSelector: {role: hub}, rightClusterSelector: {role: spoke}}
        """

    @kubernetes
    Scenario: A pod's DNS server answers an exported service's name with its global IP, as the simulator resolves it
      When east/default/client asks its cluster's DNS server for nginx.default.svc.clusterset.local
      Then the answer is 242.1.255.254
      And east/default/client resolves nginx.default.svc.clusterset.local to 242.1.255.254

    @kubernetes
    Scenario: Every ready pod of an exported headless service is in the answer with its own global IP
      When east/default/client asks its cluster's DNS server for http.myproject.svc.clusterset.local
      Then the answer is 242.1.255.253, 242.1.255.252
      When east/default/client asks its cluster's DNS server for http-1.west.http.myproject.svc.clusterset.local
      Then the answer is 242.1.255.252

    @kubernetes
    Scenario: A named port of a headless service has an SRV record per pod
      When east/default/client asks its cluster's DNS server for _web._tcp.http.myproject.svc.clusterset.local
      Then the answer is 0 50 80 http-0.west.http.myproject.svc.clusterset.local., 0 50 80 http-1.west.http.myproject.svc.clusterset.local.

    @kubernetes
    Scenario: A cluster the connectivity policy keeps apart from the asking cluster is left out
      The spokes west and north have no connection: Periscope leaves north out of west's answers
      (its own check; Lighthouse knows no connectivity policy and would answer with an address west
      cannot reach). With no cluster left, the answer is empty with NOERROR, as Lighthouse answers a
      service it knows but cannot answer for; a service nobody exports is NXDOMAIN. The hub still
      gets the database, and so does a name naming north.
      When west/default/client asks its cluster's DNS server for db.ns1.svc.clusterset.local
      Then the name exists with no records
      When west/default/client asks its cluster's DNS server for north.db.ns1.svc.clusterset.local
      Then the name exists with no records
      When west/default/client asks its cluster's DNS server for nosuch.ns1.svc.clusterset.local
      Then the name does not exist
      When east/default/client asks its cluster's DNS server for db.ns1.svc.clusterset.local
      Then the answer is 242.2.255.254
      When east/default/client asks its cluster's DNS server for north.db.ns1.svc.clusterset.local
      Then the answer is 242.2.255.254

    Scenario: A cluster whose gateways have all failed is left out
      When the node north/north-gw is removed from the cluster set
      Then no host names an address of the removed node north/north-gw
      When east/default/client asks its cluster's DNS server for db.ns1.svc.clusterset.local
      Then the name exists with no records
