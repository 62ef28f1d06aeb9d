#!/usr/bin/env bash
# Builds a throwaway network namespace by hand (plain ip / iptables / ipset / bridge commands,
# independent of Periscope's renderers), with a seed-004 gateway's state plus things that are not
# Periscope's or that the model cannot express, and stores what the readers' commands print.
# The parser tests read these files. Run as root from this directory: ./capture.sh
set -euo pipefail
ns="psc-t-capture-$$"
cleanup() { ip netns del "$ns" 2>/dev/null || true; }
trap cleanup EXIT
ip netns add "$ns"
inside() { ip netns exec "$ns" "$@"; }

inside ip link set lo up
inside ip link add eth0 type veth peer name eth0-peer
inside ip link add wan0 type veth peer name wan0-peer
inside ip link add weave type veth peer name weave-peer
inside ip addr add 172.18.0.10/16 dev eth0
inside ip addr add 198.51.100.10/24 dev wan0
inside ip addr add 10.0.0.1/16 dev weave
for l in eth0 eth0-peer wan0 wan0-peer weave weave-peer; do inside ip link set "$l" up; done

inside ip link add vx-submariner type vxlan id 100 dstport 4800 local 172.18.0.10 dev eth0 nolearning
inside ip link set vx-submariner mtu 1450 address 02:40:ac:12:00:0a
inside ip addr add 240.18.0.10/8 dev vx-submariner
inside ip link set vx-submariner up
inside ip link add vxlan-tunnel type vxlan id 1000 dstport 4500 local 198.51.100.10 dev wan0 nolearning
inside ip link set vxlan-tunnel address 02:41:ac:12:00:0a
inside ip addr add 241.18.0.10/8 dev vxlan-tunnel
inside ip link set vxlan-tunnel up

inside bridge fdb append 00:00:00:00:00:00 dev vx-submariner dst 172.18.0.11 self permanent
inside bridge fdb append 00:00:00:00:00:00 dev vx-submariner dst 172.18.0.12 self permanent
inside bridge fdb append 00:00:00:00:00:00 dev vxlan-tunnel dst 198.51.100.4 self permanent
inside bridge fdb append 02:41:ac:12:00:04 dev vxlan-tunnel dst 198.51.100.4 self permanent
inside ip neigh replace 241.18.0.4 lladdr 02:41:ac:12:00:04 dev vxlan-tunnel nud permanent
inside ip neigh replace 172.18.0.1 lladdr 02:00:00:00:00:01 dev eth0 nud permanent
inside ip neigh replace 172.18.0.2 lladdr 02:00:00:00:00:02 dev eth0 nud reachable

inside ip nexthop add id 1 via 241.18.0.4 dev vxlan-tunnel
inside ip nexthop add id 2 via 241.18.0.9 dev vxlan-tunnel onlink
inside ip nexthop add id 3 group 1/2,3
inside ip nexthop add id 4 group 1/2 type resilient buckets 64
inside ip nexthop add id 90 blackhole

inside ip rule add pref 100 lookup 100
inside ip rule add pref 150 iif lo lookup 150
inside ip rule add pref 200 from 10.0.0.0/16 to 242.254.0.0/16 fwmark 0xc0000 lookup 100
inside ip rule add pref 300 fwmark 0x10/0xff lookup 100
inside ip rule add pref 400 not from 10.9.0.0/16 lookup main

inside ip route add 100.2.0.0/16 table 100 proto static metric 100 src 10.0.0.1 nexthop via 241.18.0.4 dev vxlan-tunnel weight 1 nexthop via 241.18.0.9 dev vxlan-tunnel weight 1
inside ip route add 242.254.2.0/24 table 100 proto static metric 100 src 10.0.0.1 nhid 3
inside ip route add 10.3.0.0/16 table 100 proto static nhid 4
inside ip route add 242.254.1.10 table 100 proto static metric 98 via 241.18.0.8 dev vxlan-tunnel
inside ip route add 242.254.1.11 table 100 proto static metric 98 via 241.18.0.8 dev vxlan-tunnel onlink
inside ip route add unreachable 242.254.9.0/24 table 100 proto static
inside ip route add blackhole 242.254.8.0/24 table 100 proto static
inside ip route add default via 172.18.0.1 dev eth0 table 150 proto static
inside ip route add 10.1.0.0/16 proto static nexthop via 240.18.0.6 dev vx-submariner weight 1 nexthop via 240.18.0.8 dev vx-submariner weight 1
inside ip route add 10.44.0.0/16 via 172.18.0.1 dev eth0
inside ip route add 10.45.0.0/16 via 172.18.0.1 dev eth0 proto bird
inside ip route add prohibit 10.46.0.0/16
inside ip -6 addr add 2001:db8::10/64 dev eth0 nodad
inside ip -6 route add 2001:db8:1::/64 via 2001:db8::1 dev eth0 proto static

inside ipset create SM-GN-PODS-1A2B3C4D hash:net family inet
inside ipset add SM-GN-PODS-1A2B3C4D 10.0.1.5
inside ipset add SM-GN-PODS-1A2B3C4D 10.0.2.0/24
inside ipset create SUBMARINER-LOCALIPS hash:ip family inet
inside ipset add SUBMARINER-LOCALIPS 10.0.0.1
inside ipset create FOREIGN-PORTS hash:net,port family inet
inside ipset add FOREIGN-PORTS 10.0.0.0/8,tcp:80
inside ipset create FOREIGN-V6 hash:net family inet6
inside ipset add FOREIGN-V6 2001:db8::/32

inside iptables-restore --noflush <<'RULES'
*raw
:SUBMARINER-RAW - [0:0]
-A PREROUTING -j SUBMARINER-RAW
-A OUTPUT -j SUBMARINER-RAW
-A SUBMARINER-RAW -p udp -m udp --dport 4500 -j CT --notrack
-A SUBMARINER-RAW -p udp -m udp --dport 4800 -j CT --notrack
COMMIT
*mangle
:SUBMARINER-PREROUTING - [0:0]
-A PREROUTING -j SUBMARINER-PREROUTING
-A SUBMARINER-PREROUTING -i vxlan-tunnel -j MARK --set-xmark 0x100000/0x100000
-A SUBMARINER-PREROUTING -m connmark --mark 0x10/0xff -j CONNMARK --set-xmark 0x1/0xffffffff
-A SUBMARINER-PREROUTING -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu
-A SUBMARINER-PREROUTING -p tcp -m tcp --tcp-flags SYN,RST SYN -m mark --mark 0x4000/0x4000 -j TCPMSS --set-mss 1360
COMMIT
*nat
:SUBMARINER-POSTROUTING - [0:0]
:SUBMARINER-GN-INGRESS - [0:0]
:SUBMARINER-GN-EGRESS - [0:0]
:SUBMARINER-GN-MARK - [0:0]
:SM-GN-EGRESS-PODS - [0:0]
:SM-GN-EGRESS-NS - [0:0]
:SM-GN-EGRESS-CLUSTER - [0:0]
:KUBE-SERVICES - [0:0]
:KUBE-SVC-X7Q2 - [0:0]
:KUBE-SEP-WWP6UFXXL5K3PY6D - [0:0]
-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-I PREROUTING 1 -j SUBMARINER-GN-INGRESS
-A POSTROUTING -j SUBMARINER-POSTROUTING
-A POSTROUTING -s 10.0.0.0/16 ! -d 10.0.0.0/8 -j MASQUERADE
-A SUBMARINER-POSTROUTING -j SUBMARINER-GN-EGRESS
-A SUBMARINER-POSTROUTING -o weave -m mark --mark 0x100000/0x100000 -m conntrack --ctstate DNAT -j SNAT --to-source 10.0.0.1
-A SUBMARINER-GN-INGRESS -d 242.254.1.30/32 -m comment --comment "default/nginx-0" -j DNAT --to-destination 10.0.1.5
-A SUBMARINER-GN-EGRESS -j SUBMARINER-GN-MARK
-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-PODS
-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-NS
-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-CLUSTER
-A SUBMARINER-GN-MARK -d 242.254.2.0/24 -j MARK --set-xmark 0xc0000/0xc0000
-A SM-GN-EGRESS-PODS -m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-PODS-1A2B3C4D src -m comment --comment "default/egress" -j SNAT --to-source 242.254.1.20
-A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8
-A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -j SNAT --to-source 242.254.1.1-242.254.1.8 --random-fully
-A KUBE-SERVICES -d 100.2.0.132/32 -p tcp -m comment --comment "default/nginx:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-X7Q2
-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j RETURN
-A KUBE-SVC-X7Q2 -m comment --comment "default/nginx:http" -m statistic --mode random --probability 0.33333333349 -j KUBE-SEP-WWP6UFXXL5K3PY6D
-A KUBE-SEP-WWP6UFXXL5K3PY6D -p tcp -m comment --comment "default/submariner-lpq6zr4tl4o5qvrv2t7o3l3gawkagast" -m tcp -j DNAT --to-destination 10.0.128.5:80
COMMIT
*filter
:SUBMARINER-INPUT - [0:0]
:SUBMARINER-FORWARD - [0:0]
:SUBMARINER-FWD-MSSCLAMP - [0:0]
:FOREIGN-CHAIN - [0:0]
-A INPUT -j SUBMARINER-INPUT
-A INPUT -j FOREIGN-CHAIN
-A FORWARD -j SUBMARINER-FWD-MSSCLAMP
-A FORWARD -j SUBMARINER-FORWARD
-A FORWARD -d 10.1.0.0/16 -i vxlan-tunnel -j ACCEPT
-A FORWARD -m physdev --physdev-is-bridged -j ACCEPT
-A SUBMARINER-INPUT -p udp -m udp --dport 4500 -j ACCEPT
-A SUBMARINER-INPUT -p udp -m udp --dport 4800 -j ACCEPT
-A SUBMARINER-FORWARD -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
-A SUBMARINER-FORWARD -m set ! --match-set SUBMARINER-LOCALIPS dst -m addrtype ! --dst-type LOCAL -j DROP
-A SUBMARINER-FORWARD -p tcp -m tcp --dport 22 -j REJECT --reject-with tcp-reset
-A SUBMARINER-FWD-MSSCLAMP -d 100.2.0.0/16 -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu
-A FOREIGN-CHAIN -p icmp -j ACCEPT
-A FOREIGN-CHAIN -m limit --limit 5/sec -j LOG
-A FOREIGN-CHAIN -j RETURN
COMMIT
RULES

inside sysctl -q -w net.ipv4.ip_forward=1 net.ipv4.fib_multipath_hash_policy=1

save() { "$@" > "$out"; }
out=iptables-save.txt; inside iptables-save | grep -v '^#' > "$out"
out=ipset-save.txt; inside ipset save | sed -E 's/ initval 0x[0-9a-f]+//' > "$out"
out=ip-rule.json; save inside ip -j -4 rule show
out=ip-route.json; save inside ip -j -4 route show table all
out=ip-nexthop.json; save inside ip -j nexthop show
out=ip-vxlan-addr.json; save inside ip -j -d addr show type vxlan
out=ip-neigh.json; save inside ip -j -4 neigh show nud permanent
out=bridge-fdb.json; save inside bridge -j fdb show
out=sysctl.txt; save inside sysctl -e net.ipv4.ip_forward net.ipv4.fib_multipath_hash_policy net.ipv4.ip_local_port_range net.ipv4.conf.nosuch.rp_filter
echo "captured into $(pwd)"
