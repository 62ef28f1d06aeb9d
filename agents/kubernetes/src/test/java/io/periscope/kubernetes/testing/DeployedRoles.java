package io.periscope.kubernetes.testing;

import io.fabric8.mockwebserver.http.RecordedRequest;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What deploy/'s RBAC grants one service account, decided as Kubernetes' RBAC authorizer does: a
 * request is allowed when a rule of a role bound to the account names its API group, resource and
 * verb (or {@code *}); a Role, or a ClusterRole bound by a RoleBinding, only in the binding's
 * namespace.
 */
public final class DeployedRoles {

    public static final Path DEPLOY = Path.of("..", "..", "deploy");

    /** One rule as bound: {@code namespace} empty for a ClusterRoleBinding (every namespace and cluster-scoped objects). */
    public record Grant(Optional<String> namespace, List<String> apiGroups, List<String> resources, List<String> verbs, String role) {
        boolean allows(String verb, String group, String resource, Optional<String> requestNamespace) {
            if (namespace.isPresent() && !namespace.equals(requestNamespace)) {
                return false;
            }
            return (apiGroups.contains("*") || apiGroups.contains(group)) && (resources.contains("*") || resources.contains(resource))
                    && (verbs.contains("*") || verbs.contains(verb));
        }
    }

    /** A request as RBAC sees it. */
    public record Access(String verb, String group, String resource, Optional<String> namespace) {
        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + namespace.map(n -> " in " + n).orElse(" (all namespaces)");
        }
    }

    /** {@code /api/v1[/namespaces/NS]/RESOURCE[/NAME]} or {@code /apis/GROUP/VERSION[/namespaces/NS]/RESOURCE[/NAME]}, and the method. */
    public static Access access(RecordedRequest request) {
        URI uri = URI.create(request.getPath());
        List<String> parts = new ArrayList<>(List.of(uri.getPath().substring(1).split("/")));
        String group;
        if (parts.getFirst().equals("api")) {
            group = "";
            parts = parts.subList(2, parts.size());
        } else {
            group = parts.get(1);
            parts = parts.subList(3, parts.size());
        }
        Optional<String> namespace = Optional.empty();
        if (parts.size() >= 3 && parts.getFirst().equals("namespaces")) {
            namespace = Optional.of(parts.get(1));
            parts = parts.subList(2, parts.size());
        }
        // A subresource (clusters/NAME/status) is its own resource to RBAC: clusters/status.
        String resource = parts.size() > 2 ? parts.getFirst() + "/" + parts.get(2) : parts.getFirst();
        boolean named = parts.size() > 1;
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        String verb = switch (request.getMethod()) {
            case "GET" -> query.contains("watch=true") ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> request.getMethod().toLowerCase(java.util.Locale.ROOT);
        };
        return new Access(verb, group, resource, namespace);
    }

    private final String account;
    private final List<Grant> grants;

    private DeployedRoles(String account, List<Grant> grants) {
        this.account = account;
        this.grants = List.copyOf(grants);
    }

    /** The grants of {@code account} (in submariner-operator) in every manifest of deploy/. */
    public static DeployedRoles of(String account) {
        List<Map<String, Object>> objects = objects();
        List<Grant> grants = new ArrayList<>();
        for (Map<String, Object> binding : objects) {
            String kind = (String) binding.get("kind");
            if (!"RoleBinding".equals(kind) && !"ClusterRoleBinding".equals(kind)) {
                continue;
            }
            boolean bound = ((List<?>) binding.get("subjects")).stream().map(DeployedRoles::map)
                    .anyMatch(s -> "ServiceAccount".equals(s.get("kind")) && account.equals(s.get("name"))
                            && MockCluster.SUBMARINER_NAMESPACE.equals(s.get("namespace")));
            if (!bound) {
                continue;
            }
            Optional<String> namespace = "RoleBinding".equals(kind) ? Optional.of((String) map(binding.get("metadata")).get("namespace")) : Optional.empty();
            Map<String, Object> ref = map(binding.get("roleRef"));
            Map<String, Object> role = objects.stream().filter(o -> ref.get("kind").equals(o.get("kind"))
                            && ref.get("name").equals(map(o.get("metadata")).get("name"))
                            && ("ClusterRole".equals(ref.get("kind")) || Optional.ofNullable((String) map(o.get("metadata")).get("namespace")).equals(namespace)))
                    .findFirst().orElseThrow(() -> new AssertionError(kind + " " + map(binding.get("metadata")).get("name") + " names a missing " + ref));
            for (Object r : (List<?>) role.get("rules")) {
                Map<String, Object> rule = map(r);
                grants.add(new Grant(namespace, strings(rule.get("apiGroups")), strings(rule.get("resources")), strings(rule.get("verbs")),
                        role.get("kind") + " " + map(role.get("metadata")).get("name")));
            }
        }
        return new DeployedRoles(account, grants);
    }

    public boolean allows(String verb, String group, String resource, Optional<String> namespace) {
        return grants.stream().anyMatch(g -> g.allows(verb, group, resource, namespace));
    }

    public List<Grant> grants() {
        return grants;
    }

    public String account() {
        return account;
    }

    private static List<String> strings(Object list) {
        return ((List<?>) list).stream().map(String::valueOf).toList();
    }

    private static List<Map<String, Object>> objects() {
        List<Map<String, Object>> objects = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
                    if (document != null) {
                        objects.add(map(document));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return objects;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
