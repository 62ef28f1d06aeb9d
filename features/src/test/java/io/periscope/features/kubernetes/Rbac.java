package io.periscope.features.kubernetes;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Kubernetes' RBAC authorizer, small and real, over the manifests Periscope ships: Roles and
 * ClusterRoles (verbs, apiGroups, resources with their subresources, resourceNames, {@code *}),
 * ClusterRoles aggregated by label selectors, RoleBindings (in their namespace only, to a Role or a
 * ClusterRole) and ClusterRoleBindings, to users, groups and service accounts. RBAC only allows:
 * a request no rule allows is forbidden. The mock API servers do not authorize, so the scenarios ask this.
 *
 * <p>Kubernetes' own default roles are added as Kubernetes defines them, as far as Periscope's
 * resources are concerned: {@code cluster-admin} may do anything, and {@code admin}, {@code edit} and
 * {@code view} are aggregated from the ClusterRoles labelled {@code rbac.authorization.k8s.io/aggregate-to-<role>},
 * with {@code edit} aggregated into {@code admin} and {@code view} into {@code edit}.
 */
public final class Rbac {

    public static final String AGGREGATE_TO = "rbac.authorization.k8s.io/aggregate-to-";

    /** Who asks: a user with groups, or a service account ({@code system:serviceaccount:<ns>:<name>}). */
    public record Subject(String user, Set<String> groups) {
        public Subject {
            groups = Set.copyOf(groups);
        }

        public static Subject user(String name) {
            return new Subject(name, Set.of("system:authenticated"));
        }

        public static Subject serviceAccount(String namespace, String name) {
            return new Subject("system:serviceaccount:" + namespace + ":" + name,
                    Set.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"));
        }
    }

    /** What is asked: a verb on a resource (plural, with {@code /subresource}), in a namespace or cluster-wide ({@code namespace} empty). */
    public record Request(String verb, String apiGroup, String resource, Optional<String> namespace, Optional<String> name) {
    }

    /** The answer, with the role and binding that allowed it, or why nothing did. */
    public record Decision(boolean allowed, String reason) {
    }

    record Rule(Set<String> apiGroups, Set<String> resources, Set<String> verbs, Set<String> resourceNames) {
        boolean allows(Request request) {
            return matches(verbs, request.verb()) && matches(apiGroups, request.apiGroup()) && matchesResource(request.resource())
                    && (resourceNames.isEmpty() || request.name().filter(resourceNames::contains).isPresent());
        }

        private boolean matchesResource(String resource) {
            if (resources.contains("*") || resources.contains(resource)) {
                return true;
            }
            int slash = resource.indexOf('/');
            return slash > 0 && resources.contains("*" + resource.substring(slash));
        }

        private static boolean matches(Set<String> allowed, String value) {
            return allowed.contains("*") || allowed.contains(value);
        }
    }

    /** A Role ({@code namespace} present) or ClusterRole. */
    record Role(String kind, Optional<String> namespace, String name, Map<String, String> labels, List<Rule> rules,
                List<Map<String, String>> aggregateFrom) {
    }

    record Binding(String kind, Optional<String> namespace, String name, String roleKind, String roleName, List<Map<String, Object>> subjects) {
    }

    private final Map<String, Role> roles = new LinkedHashMap<>();
    private final List<Binding> bindings = new ArrayList<>();

    private Rbac() {
    }

    /** Kubernetes' default roles alone. */
    public static Rbac kubernetesDefaults() {
        Rbac rbac = new Rbac();
        rbac.defaults();
        return rbac;
    }

    /** Every Role, ClusterRole and binding in the YAML files under {@code dir}, with Kubernetes' default roles. */
    public static Rbac fromManifests(Path dir) {
        Rbac rbac = kubernetesDefaults();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList()) {
                for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
                    if (document instanceof Map<?, ?> map) {
                        rbac.add(cast(map), file.toString());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the manifests in " + dir.toAbsolutePath().normalize(), e);
        }
        return rbac;
    }

    /** Parses one manifest document; anything that is not an RBAC object is ignored. */
    public Rbac add(Map<String, Object> object, String where) {
        String kind = String.valueOf(object.get("kind"));
        if (!String.valueOf(object.get("apiVersion")).startsWith("rbac.authorization.k8s.io/")) {
            return this;
        }
        Map<String, Object> metadata = cast(object.getOrDefault("metadata", Map.of()));
        String name = (String) metadata.get("name");
        Optional<String> namespace = Optional.ofNullable((String) metadata.get("namespace"));
        Map<String, String> labels = new LinkedHashMap<>();
        cast(metadata.getOrDefault("labels", Map.of())).forEach((k, v) -> labels.put(k, String.valueOf(v)));
        switch (kind) {
            case "Role", "ClusterRole" -> {
                List<Rule> rules = new ArrayList<>();
                for (Object r : list(object.get("rules"))) {
                    Map<String, Object> rule = cast(r);
                    rules.add(new Rule(strings(rule.get("apiGroups")), strings(rule.get("resources")), strings(rule.get("verbs")),
                            strings(rule.get("resourceNames"))));
                }
                List<Map<String, String>> selectors = new ArrayList<>();
                if (object.get("aggregationRule") instanceof Map<?, ?> aggregation) {
                    for (Object s : list(cast(aggregation).get("clusterRoleSelectors"))) {
                        Map<String, String> matchLabels = new LinkedHashMap<>();
                        cast(cast(s).getOrDefault("matchLabels", Map.of())).forEach((k, v) -> matchLabels.put(k, String.valueOf(v)));
                        selectors.add(matchLabels);
                    }
                }
                Optional<String> scope = kind.equals("Role") ? namespace : Optional.empty();
                if (kind.equals("Role") && scope.isEmpty()) {
                    throw new IllegalArgumentException(where + ": Role " + name + " has no metadata.namespace");
                }
                roles.put(key(kind, scope, name), new Role(kind, scope, name, labels, rules, selectors));
            }
            case "RoleBinding", "ClusterRoleBinding" -> {
                Map<String, Object> ref = cast(object.get("roleRef"));
                List<Map<String, Object>> subjects = new ArrayList<>();
                list(object.get("subjects")).forEach(s -> subjects.add(cast(s)));
                bindings.add(new Binding(kind, kind.equals("RoleBinding") ? namespace : Optional.empty(), name, String.valueOf(ref.get("kind")),
                        String.valueOf(ref.get("name")), subjects));
            }
            default -> {
            }
        }
        return this;
    }

    /** A RoleBinding in {@code namespace} giving {@code user} the ClusterRole {@code clusterRole}, as a cluster admin would grant it. */
    public Rbac bindUserInNamespace(String user, String namespace, String clusterRole) {
        bindings.add(new Binding("RoleBinding", Optional.of(namespace), user + "-" + clusterRole, "ClusterRole", clusterRole,
                List.of(Map.of("kind", "User", "name", user))));
        return this;
    }

    /** A ClusterRoleBinding giving {@code user} the ClusterRole {@code clusterRole}. */
    public Rbac bindUserClusterWide(String user, String clusterRole) {
        bindings.add(new Binding("ClusterRoleBinding", Optional.empty(), user + "-" + clusterRole, "ClusterRole", clusterRole,
                List.of(Map.of("kind", "User", "name", user))));
        return this;
    }

    public Decision decide(Subject subject, Request request) {
        for (Binding binding : bindings) {
            if (binding.namespace().isPresent() && !binding.namespace().equals(request.namespace())) {
                // A RoleBinding grants in its own namespace only, never cluster-scoped resources.
                continue;
            }
            if (binding.subjects().stream().noneMatch(s -> names(s, subject, binding))) {
                continue;
            }
            Optional<Role> role = Optional.ofNullable(roles.get(key(binding.roleKind(),
                    binding.roleKind().equals("Role") ? binding.namespace() : Optional.empty(), binding.roleName())));
            if (role.isEmpty()) {
                continue;
            }
            for (Rule rule : effectiveRules(role.get(), new LinkedHashSet<>())) {
                if (rule.allows(request)) {
                    return new Decision(true, binding.kind() + " " + binding.name() + " grants " + role.get().kind() + " " + role.get().name());
                }
            }
        }
        return new Decision(false, subject.user() + " cannot " + request.verb() + " resource \"" + request.resource() + "\" in API group \""
                + request.apiGroup() + "\"" + request.namespace().map(n -> " in the namespace \"" + n + "\"").orElse(" at the cluster scope"));
    }

    /** A ClusterRole's own rules and, when it aggregates, those of every ClusterRole its selectors match (transitively). */
    private List<Rule> effectiveRules(Role role, Set<String> visiting) {
        if (!visiting.add(role.name())) {
            return List.of();
        }
        List<Rule> rules = new ArrayList<>(role.rules());
        for (Map<String, String> selector : role.aggregateFrom()) {
            for (Role other : roles.values()) {
                if (other.kind().equals("ClusterRole") && !other.name().equals(role.name())
                        && selector.entrySet().stream().allMatch(e -> e.getValue().equals(other.labels().get(e.getKey())))) {
                    rules.addAll(effectiveRules(other, visiting));
                }
            }
        }
        return rules;
    }

    private static boolean names(Map<String, Object> s, Subject subject, Binding binding) {
        String name = String.valueOf(s.get("name"));
        return switch (String.valueOf(s.get("kind"))) {
            case "User" -> subject.user().equals(name);
            case "Group" -> subject.groups().contains(name);
            case "ServiceAccount" -> subject.user().equals("system:serviceaccount:"
                    + (s.get("namespace") == null ? binding.namespace().orElse("") : s.get("namespace")) + ":" + name);
            default -> false;
        };
    }

    /** Kubernetes' default ClusterRoles, as far as aggregation and Periscope's resources go. */
    private void defaults() {
        roles.put(key("ClusterRole", Optional.empty(), "cluster-admin"), new Role("ClusterRole", Optional.empty(), "cluster-admin", Map.of(),
                List.of(new Rule(Set.of("*"), Set.of("*"), Set.of("*"), Set.of())), List.of()));
        roles.put(key("ClusterRole", Optional.empty(), "admin"), new Role("ClusterRole", Optional.empty(), "admin", Map.of(), List.of(),
                List.of(Map.of(AGGREGATE_TO + "admin", "true"))));
        roles.put(key("ClusterRole", Optional.empty(), "edit"), new Role("ClusterRole", Optional.empty(), "edit",
                Map.of(AGGREGATE_TO + "admin", "true"), List.of(), List.of(Map.of(AGGREGATE_TO + "edit", "true"))));
        roles.put(key("ClusterRole", Optional.empty(), "view"), new Role("ClusterRole", Optional.empty(), "view",
                Map.of(AGGREGATE_TO + "edit", "true"), List.of(), List.of(Map.of(AGGREGATE_TO + "view", "true"))));
        bindings.add(new Binding("ClusterRoleBinding", Optional.empty(), "cluster-admin", "ClusterRole", "cluster-admin",
                List.of(Map.of("kind", "Group", "name", "system:masters"))));
    }

    private static String key(String kind, Optional<String> namespace, String name) {
        return kind + "/" + namespace.orElse("") + "/" + name;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    private static Set<String> strings(Object value) {
        Set<String> set = new LinkedHashSet<>();
        list(value).forEach(v -> set.add(String.valueOf(v)));
        return set;
    }
}
