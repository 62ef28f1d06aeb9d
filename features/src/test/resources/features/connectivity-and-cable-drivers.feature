Feature: Fine-grained cluster connectivity and multiple cable drivers (seed 001_8cb101245c1fd5ef.txt)
  A ClusterConnectivityPolicy says which pairs of clusters connect (full mesh when there is none);
  the ordered ClusterConnectionPolicies list says which cable driver, with which options, connects
  each pair (the first matching policy wins; the default driver otherwise). Upstream never built this
  proposal; Periscope does.

  Rule: Without policies every cluster connects to every other with the default cable driver (sections "Summary" and "Proposal")

    Background:
      Given the cluster set:
        """
        name: full-mesh
        defaults: {cableDriver: vxlan}
        clusters:
          - name: alpha
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: alpha-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
            pods: [{name: app, node: alpha-gw, ip: 10.10.0.10}]
          - name: beta
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: beta-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
            pods: [{name: app, node: beta-gw, ip: 10.20.0.10}]
          - name: gamma
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: gamma-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
            pods: [{name: app, node: gamma-gw, ip: 10.30.0.10}]
        """

    @kubernetes
    Scenario: With no ClusterConnectivityPolicy the clusters form a full mesh of one cable driver
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters       | cable driver |
        | alpha and beta  | vxlan        |
        | alpha and gamma | vxlan        |
        | beta and gamma  | vxlan        |

    @kubernetes
    Scenario Outline: Every pair of clusters of the full mesh exchanges traffic (<from> to <to>)
      When <from>/default/app connects to <to>/default/app:8080
      Then the connection is delivered
      And the packets between the clusters travel in a vxlan cable

      Examples:
        | from  | to    |
        | alpha | beta  |
        | alpha | gamma |
        | beta  | gamma |
        | gamma | alpha |

  Rule: A ClusterConnectivityPolicy connects exactly the pairs its selectors match (section "Finer-grained connectivity API")

    Background:
      Given the cluster set:
        """
        name: client-server
        defaults: {cableDriver: vxlan}
        clusters:
          - name: server
            labels: {database-role: server}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: server-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
            pods: [{name: db, node: server-gw, ip: 10.10.0.10}]
          - name: client-1
            labels: {database-role: client}
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: client-1-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
            pods: [{name: app, node: client-1-gw, ip: 10.20.0.10}]
          - name: client-2
            labels: {database-role: client}
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: client-2-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
            pods: [{name: app, node: client-2-gw, ip: 10.30.0.10}]
        connectivityPolicies:
          - name: client-server-policy
            leftClusterSelector:
              database-role: server
            rightClusterSelector:
              database-role: client
        """

    @kubernetes
    Scenario: The client-server policy of the document connects the server to each client and no client to another
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters            | cable driver |
        | client-1 and server | vxlan        |
        | client-2 and server | vxlan        |
      And clusters client-1 and client-2 are not connected

    @kubernetes
    Scenario Outline: A server and a client exchange traffic in both directions (<from> to <to>)
      The policy names the server on the left and the clients on the right; it matches the pair
      whichever end looks at it.
      When <from> connects to <to>
      Then the connection is delivered

      Examples:
        | from                     | to                       |
        | client-1/default/app     | server/default/db:5432   |
        | client-2/default/app     | server/default/db:5432   |
        | server/default/db        | client-1/default/app:8080 |

    @kubernetes
    Scenario: Clients that no policy connects exchange no traffic
      When client-1/default/app connects to client-2/default/app:8080
      Then the connection is not delivered
      And no packet reaches cluster client-2
      And client-1/client-1-gw has no route to 10.30.0.0/16 in table 100
      And every path ends unreachable

    @kubernetes
    Scenario: An empty selector matches every cluster (the document's second example)
      Given the cluster set:
        """
        name: any-client
        defaults: {cableDriver: vxlan}
        clusters:
          - name: server
            labels: {database-server: true}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: server-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
            pods: [{name: db, node: server-gw, ip: 10.10.0.10}]
          - name: web
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: web-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
            pods: [{name: app, node: web-gw, ip: 10.20.0.10}]
          - name: batch
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: batch-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
            pods: [{name: app, node: batch-gw, ip: 10.30.0.10}]
        connectivityPolicies:
          - name: client-server-policy
            leftClusterSelector:
              database-server: true
            rightClusterSelector:
        """
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters          | cable driver |
        | server and web    | vxlan        |
        | batch and server  | vxlan        |
      And clusters web and batch are not connected
      When web/default/app connects to server/default/db:5432
      Then the connection is delivered
      When web/default/app connects to batch/default/app:8080
      Then the connection is not delivered

    @kubernetes
    Scenario: Connectivity policies live on the broker and are synced to every cluster
      When the cluster set is deployed
      Then the broker holds the ClusterConnectivityPolicy client-server-policy
      And every cluster holds a copy of the ClusterConnectivityPolicy client-server-policy

  Rule: The first matching ClusterConnectionPolicy chooses the cable driver, else the default one (section "Multiple cable drivers API")

    @simulator-only
    Scenario: On-premise clusters use vxlan and every other pair the default driver (the document's first example)
      Simulator only: the lab builds every cable as VXLAN (Libreswan needs XFRM, which this kernel lacks;
      the lab realises Libreswan pairs as VXLAN), so the cable that carries
      a Libreswan connection cannot be seen in the lab.
      Given the cluster set:
        """
        name: on-premise-vxlan
        clusters:
          - name: onprem-1
            labels: {location: on-premise}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: onprem-1-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
          - name: onprem-2
            labels: {location: on-premise}
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: onprem-2-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
          - name: cloud
            labels: {location: cloud}
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: cloud-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
        connectionPolicies:
          - leftClusterSelector:
              location: on-premise
            rightClusterSelector:
              location: on-premise
            cableDriver:
              name: vxlan
        """
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters              | cable driver |
        | onprem-1 and onprem-2 | vxlan        |
        | cloud and onprem-1    | libreswan    |
        | cloud and onprem-2    | libreswan    |

    @simulator-only
    Scenario: The policies apply in order: the first match wins, even over a more specific later policy
      Simulator only: the lab builds every cable as VXLAN (Libreswan needs XFRM, which this kernel lacks;
      the lab realises Libreswan pairs as VXLAN), so the cable that carries
      a Libreswan connection cannot be seen in the lab.
      Given the cluster set:
        """
        name: first-match
        clusters:
          - name: onprem-1
            labels: {location: on-premise}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: onprem-1-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
          - name: onprem-2
            labels: {location: on-premise}
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: onprem-2-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
          - name: cloud
            labels: {location: cloud}
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: cloud-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
        connectionPolicies:
          - leftClusterSelector:
            rightClusterSelector:
            cableDriver:
              name: wireguard
          - leftClusterSelector:
              location: on-premise
            rightClusterSelector:
              location: on-premise
            cableDriver:
              name: vxlan
        """
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters              | cable driver |
        | onprem-1 and onprem-2 | wireguard    |
        | cloud and onprem-1    | wireguard    |
        | cloud and onprem-2    | wireguard    |

    @simulator-only
    Scenario: A cable driver's options travel with it
      Simulator only: the lab builds every cable as VXLAN (Libreswan needs XFRM, which this kernel lacks;
      the lab realises Libreswan pairs as VXLAN), so the cable that carries
      a Libreswan connection cannot be seen in the lab.
      Given the cluster set:
        """
        name: driver-options
        clusters:
          - name: onprem-1
            labels: {location: on-premise}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: onprem-1-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
          - name: cloud
            labels: {location: cloud}
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: cloud-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
        connectionPolicies:
          - leftClusterSelector:
              location: cloud
            rightClusterSelector:
            cableDriver:
              name: libreswan
              options: {udp-port: 4600, esp: aes256-sha2_256}
        """
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters           | cable driver | options                         |
        | cloud and onprem-1 | libreswan    | esp=aes256-sha2_256, udp-port=4600 |

    @kubernetes
    Scenario: A connection policy does not connect clusters that no connectivity policy connects
      The two APIs stay apart: one decides whether a pair connects, the other how.
      Given the cluster set:
        """
        name: separate-apis
        defaults: {cableDriver: vxlan}
        clusters:
          - name: server
            labels: {database-role: server}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: server-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
          - name: client-1
            labels: {database-role: client}
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: client-1-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
          - name: client-2
            labels: {database-role: client}
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: client-2-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
        connectivityPolicies:
          - name: client-server-policy
            leftClusterSelector: {database-role: server}
            rightClusterSelector: {database-role: client}
        connectionPolicies:
          - leftClusterSelector: {database-role: client}
            rightClusterSelector: {database-role: client}
            cableDriver: {name: wireguard}
        """
      When the cluster set is deployed
      Then clusters client-1 and client-2 are not connected
      And the clusters are connected as follows:
        | clusters            | cable driver |
        | client-1 and server | vxlan        |
        | client-2 and server | vxlan        |

  Rule: Each connection is carried by the cable its policy chose, several drivers side by side (sections "Summary" and "Multiple cable drivers API")

    Background:
      Given the cluster set:
        """
        name: on-premise-and-cloud
        clusters:
          - name: onprem-1
            labels: {location: on-premise}
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: onprem-1-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
            pods: [{name: app, node: onprem-1-gw, ip: 10.10.0.10}]
          - name: onprem-2
            labels: {location: on-premise}
            podCIDRs: [10.20.0.0/16]
            serviceCIDRs: [10.120.0.0/16]
            nodes: [{name: onprem-2-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
            pods: [{name: app, node: onprem-2-gw, ip: 10.20.0.10}]
          - name: cloud
            labels: {location: cloud}
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: cloud-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
            pods: [{name: app, node: cloud-gw, ip: 10.30.0.10}]
        connectionPolicies:
          - leftClusterSelector:
              location: on-premise
            rightClusterSelector:
              location: on-premise
            cableDriver:
              name: vxlan
          - leftClusterSelector:
            rightClusterSelector:
            cableDriver:
              name: wireguard
        """

    @kubernetes
    Scenario: On-premise clusters use vxlan and everything else wireguard (the document's second example)
      When the cluster set is deployed
      Then the clusters are connected as follows:
        | clusters              | cable driver |
        | onprem-1 and onprem-2 | vxlan        |
        | cloud and onprem-1    | wireguard    |
        | cloud and onprem-2    | wireguard    |

    @kubernetes
    Scenario: The on-premise clusters exchange packets over their private link in a vxlan cable, unencrypted
      When onprem-1/default/app connects to onprem-2/default/app:8080
      Then the connection is delivered
      And the packets between the clusters travel in a vxlan cable

    @kubernetes
    Scenario: The cloud cluster is reached through an encrypted wireguard cable
      When onprem-1/default/app connects to cloud/default/app:8080
      Then the connection is delivered
      And the packets between the clusters travel in a wireguard cable
      And the packets between the clusters are encrypted

    @kubernetes
    Scenario: One gateway carries a vxlan cable and a wireguard cable side by side
      When onprem-1/default/app connects to onprem-2/default/app:8080
      Then the packets between the clusters travel in a vxlan cable
      When onprem-1/default/app connects to cloud/default/app:8080
      Then the packets between the clusters travel in a wireguard cable

    @simulator-only
    Scenario: The default libreswan driver carries the connections no policy matches
      Libreswan cannot run in the lab (the kernel has no XFRM), so the lab checks its configuration only.
      Simulator only: the lab builds every cable as VXLAN (Libreswan needs XFRM, which this kernel lacks;
      the lab realises Libreswan pairs as VXLAN), so the cable that carries
      a Libreswan connection cannot be seen in the lab.
      Given the cluster set:
        """
        name: default-libreswan
        clusters:
          - name: onprem-1
            podCIDRs: [10.10.0.0/16]
            serviceCIDRs: [10.110.0.0/16]
            nodes: [{name: onprem-1-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
            pods: [{name: app, node: onprem-1-gw, ip: 10.10.0.10}]
          - name: cloud
            podCIDRs: [10.30.0.0/16]
            serviceCIDRs: [10.130.0.0/16]
            nodes: [{name: cloud-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
            pods: [{name: app, node: cloud-gw, ip: 10.30.0.10}]
        """
      When onprem-1/default/app connects to cloud/default/app:8080
      Then the connection is delivered
      And the packets between the clusters travel in a libreswan cable
      And the packets between the clusters are encrypted

    @kubernetes
    Scenario: ClusterConnectionPolicies is one object with a well-known name, synced from the broker
      When the cluster set is deployed
      Then the broker holds the ClusterConnectionPolicies cluster-connection-policies
      And every cluster holds a copy of the ClusterConnectionPolicies cluster-connection-policies
