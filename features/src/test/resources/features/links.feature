Feature: Links with a rate, a delay, jitter and loss (seed 004's performance promise)
  A node's uplink and the cable between two clusters can carry a rate, a one-way delay with its
  jitter, a loss and a queue (docs/topology.md, "Links"). The lab makes them real (tc for rates and
  queues, the kernel's packet statistics for loss, the lab's delay line for delay); the simulator adds
  them up along every path. Each scenario states one figure: the lab must measure it within what a
  measurement allows, and the simulator must predict it exactly. Seed 004 promises that "enabling
  more than one node to be used as a gateway can improve the performance linearly in the number of
  gateways used"; how flows spread over the gateways is the cluster's multipath hash policy.

  Rule: A link's delay adds to every crossing of it, both ways

    Scenario: A cable's delay and the gateways' uplink delays add up in a ping's round trip
      Given the cluster set:
        """
        name: delayed-links
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            nodes:
              - {name: gw-1, ip: 172.18.1.11, cniIP: 10.1.1.1, gateway: true, uplink: {delay: 2ms}}
              - {name: worker, ip: 172.18.1.100, cniIP: 10.1.100.1}
            pods:
              - {name: client, node: worker, ip: 10.1.100.4}
          - name: cluster2
            podCIDRs: [10.2.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            nodes:
              - {name: gw-2, ip: 172.18.2.11, cniIP: 10.2.1.1, gateway: true, uplink: {delay: 2ms}}
              - {name: worker, ip: 172.18.2.100, cniIP: 10.2.100.1}
            pods:
              - {name: server, node: worker, ip: 10.2.100.5}
        cables:
          - {between: [cluster1, cluster2], delay: 20ms}
        """
      When cluster1/default/client pings cluster2/default/server 100 times
      Then the round trips take about 56 ms

    Scenario: A cable's jitter spreads the round trips around its delay
      Given the cluster set:
        """
        name: jittery-cable
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            nodes:
              - {name: gw-1, ip: 172.18.1.11, cniIP: 10.1.1.1, gateway: true}
              - {name: worker, ip: 172.18.1.100, cniIP: 10.1.100.1}
            pods:
              - {name: client, node: worker, ip: 10.1.100.4}
          - name: cluster2
            podCIDRs: [10.2.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            nodes:
              - {name: gw-2, ip: 172.18.2.11, cniIP: 10.2.1.1, gateway: true}
              - {name: worker, ip: 172.18.2.100, cniIP: 10.2.100.1}
            pods:
              - {name: server, node: worker, ip: 10.2.100.5}
        cables:
          - {between: [cluster1, cluster2], delay: 10ms, jitter: 3ms}
        """
      When cluster1/default/client pings cluster2/default/server 200 times
      Then the round trips take about 20 ms
      And the round trips stay within ±6 ms of it

  Rule: A lossy link loses its share of the packets crossing it, each way

    Scenario: A cable that loses 10% each way leaves 19% of the pings unanswered
      Given the cluster set:
        """
        name: lossy-cable
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            nodes:
              - {name: gw-1, ip: 172.18.1.11, cniIP: 10.1.1.1, gateway: true}
              - {name: worker, ip: 172.18.1.100, cniIP: 10.1.100.1}
            pods:
              - {name: client, node: worker, ip: 10.1.100.4}
          - name: cluster2
            podCIDRs: [10.2.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            nodes:
              - {name: gw-2, ip: 172.18.2.11, cniIP: 10.2.1.1, gateway: true}
              - {name: worker, ip: 172.18.2.100, cniIP: 10.2.100.1}
            pods:
              - {name: server, node: worker, ip: 10.2.100.5}
        cables:
          - {between: [cluster1, cluster2], loss: 10%}
        """
      When cluster1/default/client pings cluster2/default/server 400 times
      Then about 19% of the pings go unanswered

  Rule: A link's queue holds what waits for its rate; what does not fit is lost

    # 1mbit, not faster: a frame then takes 11 ms to leave, so a sender that the machine's load holds
    # back for a few milliseconds in the middle of its burst does not let the queue drain enough to
    # answer more pings than the queue holds (at 10mbit a 4 ms stall under a load of 20 answered 11).
    Scenario Outline: A burst of pings through a 1mbit uplink with a queue of <queue> packets
      Given the cluster set:
        """
        name: queued-uplink-<queue>
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            nodes:
              - {name: gw-1, ip: 172.18.1.11, cniIP: 10.1.1.1, gateway: true}
              - {name: worker, ip: 172.18.1.100, cniIP: 10.1.100.1, uplink: {rate: 1mbit, queue: <queue>}}
            pods:
              - {name: client, node: worker, ip: 10.1.100.4}
          - name: cluster2
            podCIDRs: [10.2.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            nodes:
              - {name: gw-2, ip: 172.18.2.11, cniIP: 10.2.1.1, gateway: true}
              - {name: worker, ip: 172.18.2.100, cniIP: 10.2.100.1}
            pods:
              - {name: server, node: worker, ip: 10.2.100.5}
        """
      When cluster1/default/client sends 100 pings of 1400 bytes at once to cluster2/default/server
      Then <answered>

      Examples:
        | queue | answered                       |
        | 5     | at most 10 of them are answered |
        | 1000  | all of them are answered        |

  Rule: A rate limits what crosses a link; several active gateways add their rates up

    Background:
      Given the cluster set:
        """
        name: shaped-gateways
        defaults: {cableDriver: vxlan}
        clusters:
          - name: cluster1
            podCIDRs: [10.1.0.0/16]
            serviceCIDRs: [100.1.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-1, ip: 172.18.1.11, cniIP: 10.1.1.1, gateway: true, uplink: {rate: 20mbit}}
              - {name: gw-2, ip: 172.18.1.12, cniIP: 10.1.2.1, gateway: true, uplink: {rate: 20mbit}}
              - {name: worker, ip: 172.18.1.100, cniIP: 10.1.100.1}
            pods:
              - {name: client, node: worker, ip: 10.1.100.4}
          - name: cluster2
            podCIDRs: [10.2.0.0/16]
            serviceCIDRs: [100.2.0.0/16]
            multiActiveGateways: true
            nodes:
              - {name: gw-3, ip: 172.18.2.11, cniIP: 10.2.1.1, gateway: true, uplink: {rate: 20mbit}}
              - {name: gw-4, ip: 172.18.2.12, cniIP: 10.2.2.1, gateway: true, uplink: {rate: 20mbit}}
              - {name: worker, ip: 172.18.2.100, cniIP: 10.2.100.1}
            pods:
              - {name: server, node: worker, ip: 10.2.100.5}
        """

    Scenario: With the L4 hash one pod pair's connections spread over both gateways, which carry twice one's rate
      When 32 TCP connections run from cluster1/default/client to cluster2/default/server:5201 for 8 seconds
      Then they leave cluster1 by 2 of its gateways
      And they carry about 40 Mbit/s together

    Scenario: With the L3 hash one pod pair's connections all take one gateway, which carries one rate
      Given cluster cluster1 hashes multipath routes by l3
      And cluster cluster2 hashes multipath routes by l3
      When 16 TCP connections run from cluster1/default/client to cluster2/default/server:5201 for 8 seconds
      Then they leave cluster1 by 1 of its gateways
      And they carry about 20 Mbit/s together
