package io.periscope.dataplane.iproute;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Parses the JSON that iproute2 prints ({@code ip -j ...}, {@code bridge -j ...}) into the plan's
 * records. Entries the model cannot express exactly are skipped rather than approximated, so that
 * nothing is ever rewritten from a misreading: IPv6, routes of other types or protocols, rules with
 * selectors or actions the model lacks, nexthop objects without a gateway, non-permanent entries.
 * Which of the remaining entries are Periscope's is decided by the caller.
 */
public final class IprouteJsonParser {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Set<String> RULE_FIELDS = Set.of("priority", "src", "srclen", "dst", "dstlen", "fwmark", "iif",
            "table", "flags", "protocol");
    private static final Set<String> ROUTE_FIELDS = Set.of("type", "dst", "table", "protocol", "scope", "prefsrc", "metric",
            "flags", "gateway", "dev", "nexthops", "nhid");

    private IprouteJsonParser() {
    }

    /** {@code ip -j -4 rule}: the kernel's three default rules are included; callers leave them alone. */
    public static List<PolicyRule> rules(String json) {
        List<PolicyRule> rules = new ArrayList<>();
        for (JsonNode rule : array(json, "ip rule")) {
            if (!onlyFields(rule, RULE_FIELDS)) {
                continue;
            }
            OptionalInt table = RouteTables.parse(rule.path("table").asText());
            if (table.isEmpty() || !rule.has("priority")) {
                continue;
            }
            Optional<Ipv4Prefix> from = selector(rule, "src", "srclen");
            Optional<Ipv4Prefix> to = selector(rule, "dst", "dstlen");
            OptionalInt fwmark = rule.has("fwmark") ? OptionalInt.of(Integer.parseUnsignedInt(
                    rule.get("fwmark").asText().replaceFirst("^0x", ""), 16)) : OptionalInt.empty();
            Optional<String> iif = rule.has("iif") ? Optional.of(rule.get("iif").asText()) : Optional.empty();
            rules.add(new PolicyRule(rule.get("priority").asInt(), from, to, fwmark, iif, table.getAsInt()));
        }
        return rules;
    }

    /**
     * {@code ip -j -4 route show table all}: unicast, blackhole and unreachable routes of protocol
     * static, boot or kernel. A route through a nexthop object keeps only its {@code nhid}; the
     * kernel also lists the object's nexthops, which belong to the object.
     */
    public static List<Route> routes(String json) {
        List<Route> routes = new ArrayList<>();
        for (JsonNode route : array(json, "ip route")) {
            if (!onlyFields(route, ROUTE_FIELDS)) {
                continue;
            }
            Optional<RouteType> type = switch (route.path("type").asText("unicast")) {
                case "unicast" -> Optional.of(RouteType.UNICAST);
                case "blackhole" -> Optional.of(RouteType.BLACKHOLE);
                case "unreachable" -> Optional.of(RouteType.UNREACHABLE);
                default -> Optional.empty();
            };
            Optional<RouteProtocol> protocol = switch (route.path("protocol").asText("boot")) {
                case "static" -> Optional.of(RouteProtocol.STATIC);
                case "boot" -> Optional.of(RouteProtocol.BOOT);
                case "kernel" -> Optional.of(RouteProtocol.KERNEL);
                default -> Optional.empty();
            };
            OptionalInt table = route.has("table") ? RouteTables.parse(route.get("table").asText()) : OptionalInt.of(RouteTables.MAIN);
            if (type.isEmpty() || protocol.isEmpty() || table.isEmpty()) {
                continue;
            }
            String dst = route.path("dst").asText();
            Ipv4Prefix destination = dst.equals("default") ? Ipv4Prefix.DEFAULT : Ipv4Prefix.parse(dst);
            OptionalInt nhid = route.has("nhid") ? OptionalInt.of(route.get("nhid").asInt()) : OptionalInt.empty();
            List<Nexthop> nexthops = new ArrayList<>();
            if (type.get() == RouteType.UNICAST && nhid.isEmpty()) {
                if (route.has("nexthops")) {
                    for (JsonNode nexthop : route.get("nexthops")) {
                        nexthops.add(nexthop(nexthop, nexthop.path("weight").asInt(1)));
                    }
                } else {
                    nexthops.add(nexthop(route, 1));
                }
            }
            Optional<Ipv4Address> source = route.has("prefsrc") ? Optional.of(Ipv4Address.parse(route.get("prefsrc").asText())) : Optional.empty();
            routes.add(new Route(table.getAsInt(), destination, type.get(), nexthops, nhid, source,
                    route.path("metric").asInt(0), protocol.get()));
        }
        return routes;
    }

    private static Nexthop nexthop(JsonNode node, int weight) {
        if (!node.has("dev")) {
            throw new IllegalArgumentException("a nexthop without device in ip route output: " + node);
        }
        Optional<Ipv4Address> via = node.has("gateway") ? Optional.of(Ipv4Address.parse(node.get("gateway").asText())) : Optional.empty();
        return new Nexthop(via, node.get("dev").asText(), weight, hasFlag(node, "onlink"));
    }

    /** {@code ip -j nexthop}: the objects and groups, in the kernel's order. */
    public record Nexthops(List<NexthopObject> objects, List<NexthopGroup> groups) {
        public Nexthops {
            objects = List.copyOf(objects);
            groups = List.copyOf(groups);
        }
    }

    public static Nexthops nexthops(String json) {
        List<NexthopObject> objects = new ArrayList<>();
        List<NexthopGroup> groups = new ArrayList<>();
        for (JsonNode nexthop : array(json, "ip nexthop")) {
            int id = nexthop.path("id").asInt();
            if (nexthop.has("group")) {
                List<NexthopGroup.Member> members = new ArrayList<>();
                for (JsonNode member : nexthop.get("group")) {
                    members.add(new NexthopGroup.Member(member.path("id").asInt(), member.path("weight").asInt(1)));
                }
                String type = nexthop.path("type").asText("mpath");
                if (type.equals("resilient")) {
                    JsonNode resilient = nexthop.path("resilient_args");
                    groups.add(new NexthopGroup(id, members, true, resilient.path("buckets").asInt(),
                            resilient.path("idle_timer").asInt(NexthopGroup.KERNEL_DEFAULT_IDLE_TIMER)));
                } else if (type.equals("mpath")) {
                    groups.add(new NexthopGroup(id, members, false, 0));
                }
            } else if (nexthop.has("gateway") && nexthop.has("dev") && !nexthop.has("blackhole") && !nexthop.has("fdb")) {
                objects.add(new NexthopObject(id, Ipv4Address.parse(nexthop.get("gateway").asText()), nexthop.get("dev").asText(),
                        hasFlag(nexthop, "onlink")));
            }
        }
        return new Nexthops(objects, groups);
    }

    /**
     * {@code ip -j -d addr show type vxlan}: the device with its first IPv4 address, its local
     * address and underlay where it has them (upstream's devices have neither), and whether it learns.
     */
    public static List<VxlanDevice> vxlanDevices(String json) {
        List<VxlanDevice> devices = new ArrayList<>();
        for (JsonNode link : array(json, "ip addr show type vxlan")) {
            JsonNode data = link.path("linkinfo").path("info_data");
            if (!link.path("linkinfo").path("info_kind").asText().equals("vxlan")) {
                continue;
            }
            Ipv4Address address = Ipv4Address.ANY;
            int length = 0;
            for (JsonNode info : link.path("addr_info")) {
                if (info.path("family").asText().equals("inet")) {
                    address = Ipv4Address.parse(info.get("local").asText());
                    length = info.path("prefixlen").asInt(32);
                    break;
                }
            }
            Optional<Ipv4Address> local = data.has("local") ? Optional.of(Ipv4Address.parse(data.get("local").asText())) : Optional.empty();
            Optional<String> underlay = data.has("link") ? Optional.of(data.get("link").asText()) : Optional.empty();
            devices.add(new VxlanDevice(link.get("ifname").asText(), data.path("id").asInt(), data.path("port").asInt(), local,
                    underlay, link.path("mtu").asInt(), address, Ipv4Prefix.containing(address, length),
                    data.path("learning").asBoolean(false)));
        }
        return devices;
    }

    /** {@code ip -j -4 neigh show nud permanent}. */
    public static List<Neighbour> neighbours(String json) {
        List<Neighbour> neighbours = new ArrayList<>();
        for (JsonNode entry : array(json, "ip neigh")) {
            boolean permanent = false;
            for (JsonNode state : entry.path("state")) {
                permanent |= state.asText().equals("PERMANENT");
            }
            if (permanent && entry.has("lladdr") && entry.has("dev")) {
                neighbours.add(new Neighbour(entry.get("dev").asText(), Ipv4Address.parse(entry.get("dst").asText()),
                        MacAddress.parse(entry.get("lladdr").asText())));
            }
        }
        return neighbours;
    }

    /** {@code bridge -j fdb show}: permanent entries with an IPv4 destination, as VXLAN devices hold them. */
    public static List<FdbEntry> fdb(String json) {
        List<FdbEntry> entries = new ArrayList<>();
        for (JsonNode entry : array(json, "bridge fdb")) {
            String dst = entry.path("dst").asText("");
            if (!entry.path("state").asText().equals("permanent") || !hasFlag(entry, "self") || !dst.matches("\\d+\\.\\d+\\.\\d+\\.\\d+")) {
                continue;
            }
            entries.add(new FdbEntry(entry.get("ifname").asText(), MacAddress.parse(entry.get("mac").asText()), Ipv4Address.parse(dst)));
        }
        return entries;
    }

    private static Optional<Ipv4Prefix> selector(JsonNode rule, String field, String lengthField) {
        String text = rule.path(field).asText("all");
        if (text.equals("all")) {
            return Optional.empty();
        }
        return Optional.of(Ipv4Prefix.containing(Ipv4Address.parse(text), rule.path(lengthField).asInt(32)));
    }

    private static boolean hasFlag(JsonNode node, String flag) {
        for (JsonNode f : node.path("flags")) {
            if (f.asText().equals(flag)) {
                return true;
            }
        }
        return false;
    }

    private static boolean onlyFields(JsonNode node, Set<String> allowed) {
        for (var names = node.fieldNames(); names.hasNext(); ) {
            if (!allowed.contains(names.next())) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode array(String json, String what) {
        if (json.isBlank()) {
            return JSON.createArrayNode();
        }
        try {
            JsonNode node = JSON.readTree(json);
            if (!node.isArray()) {
                throw new IllegalArgumentException(what + " output is not a JSON array: " + abbreviate(json));
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(what + " output is not JSON (" + e.getOriginalMessage() + "): " + abbreviate(json));
        }
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
