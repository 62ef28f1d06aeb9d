@simulator-only
Feature: Service discovery through a cluster's own DNS server (seed 000_74ce4ad56a2c3811.txt, "Service Discovery - Lighthouse")
  Pods find the services other clusters export by name, and with Globalnet the answer is the global IP.
  Every cluster runs Periscope's DNS server for clusterset.local (docs/dns.md). These scenarios start
  a real server for the asking pod's cluster on 127.0.0.1 and ask it over UDP with the JDK's own DNS
  client, a third implementation next to the server's and the simulator's. Simulator only: the lab
  does not yet run the server inside the clusters' namespaces (docs/dns.md, "Not yet"), so the lab has
  nothing of its own to add.

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

  Rule: The DNS server answers with global IPs (section "Service Discovery - Lighthouse")

    Scenario: A pod's DNS server answers an exported service's name with its global IP, as the simulator resolves it
      When east/default/client asks its cluster's DNS server for nginx.default.svc.clusterset.local
      Then the answer is 242.1.255.254
      And east/default/client resolves nginx.default.svc.clusterset.local to 242.1.255.254

    Scenario: Every ready pod of an exported headless service is in the answer with its own global IP
      When east/default/client asks its cluster's DNS server for http.myproject.svc.clusterset.local
      Then the answer is 242.1.255.253, 242.1.255.252
      When east/default/client asks its cluster's DNS server for http-1.west.http.myproject.svc.clusterset.local
      Then the answer is 242.1.255.252

    Scenario: A named port of a headless service has an SRV record per pod
      When east/default/client asks its cluster's DNS server for _web._tcp.http.myproject.svc.clusterset.local
      Then the answer is 0 50 80 http-0.west.http.myproject.svc.clusterset.local., 0 50 80 http-1.west.http.myproject.svc.clusterset.local.

  Rule: A cluster the pod cannot reach is left out of the answer (beyond Lighthouse, issue 17)

    Scenario: A cluster the connectivity policy keeps apart from the asking cluster is left out
      The spokes west and north have no connection: west's pods get NXDOMAIN for north's database,
      where Lighthouse would answer with an address they cannot reach. The hub still gets it.
      When west/default/client asks its cluster's DNS server for db.ns1.svc.clusterset.local
      Then the name does not exist
      When east/default/client asks its cluster's DNS server for db.ns1.svc.clusterset.local
      Then the answer is 242.2.255.254

    Scenario: A cluster whose gateways have all failed is left out
      When the node north/north-gw fails
      And east/default/client asks its cluster's DNS server for db.ns1.svc.clusterset.local
      Then the name does not exist
