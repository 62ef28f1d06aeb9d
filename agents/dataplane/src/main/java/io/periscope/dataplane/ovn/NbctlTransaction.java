package io.periscope.dataplane.ovn;

import io.periscope.plan.Names;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Changes as the arguments of one {@code ovn-nbctl} run, that is one OVSDB transaction: all of them
 * happen or none. Commands are separated by {@code --} and ordered so that every reference holds
 * at each step: ports, policies and routes to delete go first; then load balancers and groups are
 * created (a new row gets {@code --id=@name} so that later commands can refer to it) and updated;
 * then switches and routers are created and updated, and unwanted ones deleted (after the rows
 * that referred to their load balancer groups changed), then unwanted groups and load balancers;
 * last the ports, policies and routes are created or updated. Pure.
 */
public final class NbctlTransaction {

    private NbctlTransaction() {
    }

    /**
     * @param actual the database as read: it gives the UUIDs of the load balancers and groups that
     *               rows refer to by name
     */
    public static List<String> arguments(List<NbChange> changes, NorthboundState actual) {
        Map<String, String> refs = new HashMap<>();
        for (NorthboundState.Stored stored : actual.rows()) {
            switch (stored.row()) {
                case NbRow.LoadBalancerRow lb -> stored.uuid().ifPresent(u -> refs.putIfAbsent(lb.key(), u));
                case NbRow.LoadBalancerGroupRow g -> stored.uuid().ifPresent(u -> refs.putIfAbsent(g.key(), u));
                default -> {
                }
            }
        }
        List<List<String>> commands = new ArrayList<>();
        // 1. Children that go away.
        for (NbChange change : select(changes, NbChange.Delete.class, r -> r instanceof NbRow.PolicyRow || r instanceof NbRow.RouteRow
                || r instanceof NbRow.RouterPortRow || r instanceof NbRow.SwitchPortRow)) {
            NbChange.Delete delete = (NbChange.Delete) change;
            String uuid = delete.from().uuid().orElseThrow();
            commands.add(switch (delete.row()) {
                case NbRow.PolicyRow p -> List.of("lr-policy-del", p.router(), uuid);
                case NbRow.RouteRow r -> List.of("remove", "Logical_Router", r.router(), "static_routes", uuid);
                case NbRow.RouterPortRow p -> List.of("lrp-del", uuid);
                case NbRow.SwitchPortRow p -> List.of("lsp-del", uuid);
                default -> throw new IllegalStateException();
            });
        }
        // 2. Load balancers, then groups (which refer to them).
        int ids = 0;
        for (Class<? extends NbRow> type : List.of(NbRow.LoadBalancerRow.class, NbRow.LoadBalancerGroupRow.class)) {
            for (NbChange change : select(changes, NbChange.Create.class, type::isInstance)) {
                String id = "@row" + ids++;
                refs.put(change.row().key(), id);
                List<String> command = new ArrayList<>(List.of("--id=" + id, "create", NbRow.table(change.row())));
                command.addAll(columns(change.row(), refs));
                commands.add(command);
            }
            for (NbChange change : select(changes, NbChange.Update.class, type::isInstance)) {
                commands.add(set(((NbChange.Update) change).from(), change.row(), refs));
            }
        }
        // 3. Switches and routers.
        for (NbChange change : select(changes, NbChange.Create.class, r -> r instanceof NbRow.SwitchRow || r instanceof NbRow.RouterRow)) {
            List<String> command = new ArrayList<>(List.of("create", NbRow.table(change.row())));
            command.addAll(columns(change.row(), refs));
            commands.add(command);
        }
        for (NbChange change : select(changes, NbChange.Update.class, r -> r instanceof NbRow.SwitchRow || r instanceof NbRow.RouterRow)) {
            NbChange.Update update = (NbChange.Update) change;
            commands.add(set(update.from(), update.row(), refs));
            if (update.from().row() instanceof NbRow.RouterRow old && update.row() instanceof NbRow.RouterRow now
                    && old.chassis().isPresent() && now.chassis().isEmpty()) {
                commands.add(List.of("remove", "Logical_Router", update.from().uuid().orElseThrow(), "options", "chassis"));
            }
        }
        for (NbChange change : select(changes, NbChange.Delete.class, r -> r instanceof NbRow.SwitchRow || r instanceof NbRow.RouterRow)) {
            String uuid = ((NbChange.Delete) change).from().uuid().orElseThrow();
            commands.add(List.of(change.row() instanceof NbRow.SwitchRow ? "ls-del" : "lr-del", uuid));
        }
        for (Class<? extends NbRow> type : List.of(NbRow.LoadBalancerGroupRow.class, NbRow.LoadBalancerRow.class)) {
            for (NbChange change : select(changes, NbChange.Delete.class, type::isInstance)) {
                commands.add(List.of("destroy", NbRow.table(change.row()), ((NbChange.Delete) change).from().uuid().orElseThrow()));
            }
        }
        // 4. Children that are new or changed.
        for (NbChange change : select(changes, NbChange.Create.class, r -> r instanceof NbRow.RouterPortRow || r instanceof NbRow.SwitchPortRow)) {
            switch (change.row()) {
                case NbRow.RouterPortRow p -> {
                    List<String> command = new ArrayList<>(List.of("lrp-add", p.router(), p.name(), p.mac()));
                    command.addAll(p.networks());
                    commands.add(command);
                }
                case NbRow.SwitchPortRow p -> {
                    commands.add(List.of("lsp-add", p.logicalSwitch(), p.name()));
                    if (!p.type().isEmpty()) {
                        commands.add(List.of("lsp-set-type", p.name(), p.type()));
                    }
                    if (!p.options().isEmpty()) {
                        List<String> command = new ArrayList<>(List.of("lsp-set-options", p.name()));
                        p.options().forEach((k, v) -> command.add(k + "=" + v));
                        commands.add(command);
                    }
                    if (!p.addresses().isEmpty()) {
                        List<String> command = new ArrayList<>(List.of("lsp-set-addresses", p.name()));
                        command.addAll(p.addresses());
                        commands.add(command);
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        for (NbChange change : select(changes, NbChange.Update.class, r -> r instanceof NbRow.RouterPortRow || r instanceof NbRow.SwitchPortRow)) {
            commands.add(set(((NbChange.Update) change).from(), change.row(), refs));
        }
        for (NbChange change : select(changes, NbChange.Update.class, r -> r instanceof NbRow.PolicyRow)) {
            commands.add(set(((NbChange.Update) change).from(), change.row(), refs));
        }
        for (NbChange change : select(changes, NbChange.Create.class, r -> r instanceof NbRow.PolicyRow || r instanceof NbRow.RouteRow)) {
            switch (change.row()) {
                case NbRow.PolicyRow p -> {
                    List<String> command = new ArrayList<>(List.of("lr-policy-add", p.router(), Integer.toString(p.priority()), p.match(), p.action()));
                    if (!p.nexthops().isEmpty()) {
                        command.add(String.join(",", p.nexthops()));
                    }
                    commands.add(command);
                }
                case NbRow.RouteRow r when r.submariner() -> {
                    // lr-route-add cannot set external_ids: the route is created with its mark and added to
                    // the router in the same transaction, in the columns lr-route-add would write.
                    String id = "@row" + ids++;
                    List<String> command = new ArrayList<>(List.of("--id=" + id, "create", NbRow.table(r),
                            "ip_prefix=" + quote(storedPrefix(r.prefix())), "nexthop=" + quote(r.nexthop()), "policy=" + quote(r.policy())));
                    r.outputPort().ifPresent(port -> command.add("output_port=" + quote(port)));
                    command.add("external_ids:" + Names.OVN_SUBMARINER_EXTERNAL_ID + "=" + quote(Names.OVN_SUBMARINER_EXTERNAL_ID_VALUE));
                    commands.add(command);
                    commands.add(List.of("add", "Logical_Router", r.router(), "static_routes", id));
                }
                case NbRow.RouteRow r -> {
                    List<String> command = new ArrayList<>(List.of("--policy=" + r.policy(), "lr-route-add", r.router(), r.prefix(), r.nexthop()));
                    r.outputPort().ifPresent(command::add);
                    commands.add(command);
                }
                default -> throw new IllegalStateException();
            }
        }
        List<String> argv = new ArrayList<>();
        for (List<String> command : commands) {
            argv.add("--");
            argv.addAll(command);
        }
        return argv;
    }

    /** The prefix as lr-route-add stores it: a host route without its length ({@link NbRow.RouteRow} reads it back with it). */
    private static String storedPrefix(String prefix) {
        return prefix.endsWith("/32") ? prefix.substring(0, prefix.length() - 3) : prefix;
    }

    private static List<NbChange> select(List<NbChange> changes, Class<? extends NbChange> kind, Predicate<NbRow> rows) {
        return changes.stream().filter(kind::isInstance).filter(c -> rows.test(c.row())).toList();
    }

    private static List<String> set(NorthboundState.Stored from, NbRow row, Map<String, String> refs) {
        List<String> command = new ArrayList<>(List.of("set", NbRow.table(row), from.uuid().orElseThrow()));
        command.addAll(columns(row, refs));
        return command;
    }

    /** The columns Periscope owns, in ovsdb-ctl's {@code column=value} syntax. */
    private static List<String> columns(NbRow row, Map<String, String> refs) {
        return switch (row) {
            case NbRow.LoadBalancerRow lb -> List.of("name=" + quote(lb.name()), "protocol=" + quote(lb.protocol()), "vips=" + map(lb.vips()));
            case NbRow.LoadBalancerGroupRow g -> List.of("name=" + quote(g.name()),
                    "load_balancer=" + references(g.loadBalancers().stream().map(l -> "load_balancer " + l).toList(), refs));
            case NbRow.SwitchRow s -> List.of("name=" + quote(s.name()),
                    "load_balancer_group=" + references(s.loadBalancerGroups().stream().map(g -> "load_balancer_group " + g).toList(), refs));
            case NbRow.RouterRow r -> {
                List<String> columns = new ArrayList<>(List.of("name=" + quote(r.name()),
                        "load_balancer_group=" + references(r.loadBalancerGroups().stream().map(g -> "load_balancer_group " + g).toList(), refs)));
                // Only the chassis key: OVN-Kubernetes' own options on a shared router stay as they are.
                r.chassis().ifPresent(c -> columns.add("options:chassis=" + quote(c)));
                yield columns;
            }
            case NbRow.RouterPortRow p -> List.of("mac=" + quote(p.mac()), "networks=" + set(p.networks()));
            case NbRow.SwitchPortRow p -> List.of("type=" + quote(p.type()), "options=" + map(p.options()), "addresses=" + set(p.addresses()));
            // Priority and match are the policy's key, so only what it does changes.
            case NbRow.PolicyRow p -> List.of("action=" + quote(p.action()), "nexthops=" + set(p.nexthops()));
            case NbRow.RouteRow r -> throw new IllegalArgumentException("a route has no name, so it is replaced, never updated: " + r);
        };
    }

    private static String references(Collection<String> keys, Map<String, String> refs) {
        return "[" + keys.stream().map(k -> Optional.ofNullable(refs.get(k))
                .orElseThrow(() -> new IllegalArgumentException("the database holds no " + k))).collect(Collectors.joining(",")) + "]";
    }

    private static String set(Collection<String> values) {
        return "[" + values.stream().map(NbctlTransaction::quote).collect(Collectors.joining(",")) + "]";
    }

    private static String map(Map<String, String> values) {
        return "{" + values.entrySet().stream().map(e -> quote(e.getKey()) + "=" + quote(e.getValue())).collect(Collectors.joining(",")) + "}";
    }

    /** An OVSDB string in ovsdb-ctl's syntax: always double-quoted, so that colons, slashes and spaces are plain characters. */
    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
