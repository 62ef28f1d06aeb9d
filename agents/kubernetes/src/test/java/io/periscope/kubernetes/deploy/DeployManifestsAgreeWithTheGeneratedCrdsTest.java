package io.periscope.kubernetes.deploy;

import io.periscope.kubernetes.main.AgentCommand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/ read as the API server would: every object's kind and version exist (built in, or one of
 * the CRDs the build generated), custom objects use only fields their CRD's schema has, RBAC names
 * only resources that exist, workloads run subcommands that exist, and the two creation rules of
 * seed 002 hold in the roles.
 */
class DeployManifestsAgreeWithTheGeneratedCrdsTest {

    private static final Path DEPLOY = Path.of("..", "..", "deploy");
    private static final Path DOCS = Path.of("..", "..", "docs");
    private static final Path GENERATED = Path.of("target", "classes", "META-INF", "fabric8");
    private static final Set<String> BUILT_IN = Set.of("v1/Namespace", "v1/ServiceAccount", "v1/ConfigMap", "v1/Service",
            "rbac.authorization.k8s.io/v1/ClusterRole", "rbac.authorization.k8s.io/v1/Role",
            "rbac.authorization.k8s.io/v1/ClusterRoleBinding", "rbac.authorization.k8s.io/v1/RoleBinding",
            "apps/v1/Deployment", "apps/v1/DaemonSet", "apiextensions.k8s.io/v1/CustomResourceDefinition",
            "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy", "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding");

    /** A generated CRD: group, version, kind, plural, scope, schema, status subresource. */
    record Crd(String group, String version, String kind, String plural, boolean namespaced, Map<String, Object> schema, boolean status) {
    }

    private static List<Crd> crds;
    private static List<Map<String, Object>> objects;

    @BeforeAll
    static void read() throws IOException {
        crds = new ArrayList<>();
        try (Stream<Path> files = Files.list(GENERATED)) {
            for (Path file : files.sorted().toList()) {
                Map<String, Object> crd = documents(file).getFirst();
                Map<String, Object> spec = map(crd.get("spec"));
                Map<String, Object> names = map(spec.get("names"));
                for (Object v : (List<?>) spec.get("versions")) {
                    Map<String, Object> version = map(v);
                    crds.add(new Crd((String) spec.get("group"), (String) version.get("name"), (String) names.get("kind"), (String) names.get("plural"),
                            "Namespaced".equals(spec.get("scope")), map(map(version.get("schema")).get("openAPIV3Schema")),
                            version.get("subresources") != null && map(version.get("subresources")).containsKey("status")));
                }
            }
        }
        objects = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList()) {
                if (!file.getFileName().toString().equals("kustomization.yaml")) {
                    for (Map<String, Object> document : documents(file)) {
                        document.put("__file", DEPLOY.relativize(file).toString());
                        objects.add(document);
                    }
                }
            }
        }
    }

    @Test
    void theCrdsInDeployAreTheGeneratedOnesUnchanged() throws IOException {
        try (Stream<Path> generated = Files.list(GENERATED); Stream<Path> deployed = Files.list(DEPLOY.resolve("crds"))) {
            List<Path> a = generated.sorted().toList();
            assertThat(deployed.map(p -> p.getFileName().toString()).sorted().toList())
                    .as("deploy/crds holds exactly the generated CRDs; copy them again from " + GENERATED)
                    .isEqualTo(a.stream().map(p -> p.getFileName().toString()).toList());
            for (Path file : a) {
                assertThat(Files.readString(DEPLOY.resolve("crds").resolve(file.getFileName())))
                        .as("deploy/crds/" + file.getFileName() + " differs from the generated CRD; copy it again").isEqualTo(Files.readString(file));
            }
        }
    }

    @Test
    void kustomizationListsEveryManifestThatExists() throws IOException {
        List<String> resources = ((List<?>) documents(DEPLOY.resolve("kustomization.yaml")).getFirst().get("resources"))
                .stream().map(String::valueOf).toList();
        for (String resource : resources) {
            assertThat(DEPLOY.resolve(resource)).as("kustomization.yaml names " + resource).exists();
        }
        Set<String> files = new HashSet<>();
        objects.forEach(o -> files.add((String) o.get("__file")));
        // broker-sync.yaml needs a Secret the user creates first, so it is applied on its own; broker/ goes to the broker's API.
        files.remove("broker-sync.yaml");
        files.removeIf(f -> f.startsWith("broker/"));
        assertThat(resources).containsAll(files);
    }

    @Test
    void everyObjectHasAKnownKindAndCustomObjectsOnlyKnownFields() {
        for (Map<String, Object> object : objects) {
            String apiVersion = (String) object.get("apiVersion");
            String kind = (String) object.get("kind");
            String where = object.get("__file") + " " + kind + " " + map(object.get("metadata")).get("name");
            if (BUILT_IN.contains(apiVersion + "/" + kind)) {
                continue;
            }
            Crd crd = crds.stream().filter(c -> (c.group() + "/" + c.version()).equals(apiVersion) && c.kind().equals(kind)).findFirst()
                    .orElseThrow(() -> new AssertionError(where + ": no generated CRD serves " + apiVersion + " " + kind));
            assertThat(map(object.get("metadata")).containsKey("namespace")).as(where + " namespace").isEqualTo(crd.namespaced());
            for (String field : List.of("spec", "status")) {
                if (object.containsKey(field)) {
                    checkFields(object.get(field), map(map(crd.schema().get("properties")).get(field)), where + " ." + field);
                }
            }
        }
    }

    /**
     * docs/kubernetes.md's table of custom resources has a row per generated kind, and the row names
     * every field of its spec and status, and the fields of their lists' items (but Kubernetes' own
     * conditions), so that what the controllers write (say a GlobalEgressIP's per-gateway slices)
     * is never left undocumented.
     */
    @Test
    void theKubernetesDocNamesEveryKindAndEveryFieldOfItsSpecAndStatus() throws IOException {
        Map<String, String> rows = new HashMap<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(DOCS.resolve("kubernetes.md"))) {
            if (line.startsWith("| kind | scope | fields")) {
                inTable = true;
            } else if (inTable && !line.startsWith("|")) {
                break;
            } else if (inTable && !line.startsWith("| ---")) {
                String[] cells = line.split("\\|");
                rows.put(cells[1].trim().split(" ")[0], cells[3]);
            }
        }
        List<String> unnamed = new ArrayList<>();
        for (Crd crd : crds) {
            if (!crd.group().equals("submariner.io")) {
                continue;
            }
            assertThat(rows).as("docs/kubernetes.md's table of custom resources has a row for " + crd.kind()).containsKey(crd.kind());
            String row = rows.get(crd.kind());
            Map<String, Object> properties = map(crd.schema().get("properties"));
            for (String part : List.of("spec", "status")) {
                if (properties.get(part) == null || map(properties.get(part)).get("properties") == null) {
                    continue;
                }
                map(map(properties.get(part)).get("properties")).forEach((name, schema) -> {
                    if (!namesField(row, name)) {
                        unnamed.add(crd.kind() + " " + part + "." + name);
                    }
                    Map<String, Object> items = map(schema).get("items") == null ? Map.of() : map(map(schema).get("items"));
                    // Conditions are Kubernetes' own metav1.Condition, documented there.
                    if (items.get("properties") != null && !name.equals("conditions")) {
                        map(items.get("properties")).keySet().stream().filter(field -> !namesField(row, field))
                                .forEach(field -> unnamed.add(crd.kind() + " " + part + "." + name + "[]." + field));
                    }
                });
            }
        }
        assertThat(unnamed).as("fields the table of custom resources in docs/kubernetes.md does not name").isEmpty();
    }

    /** {@code `name`}, {@code `name[]`} or {@code `name {a, b}`}. */
    private static boolean namesField(String row, String name) {
        return java.util.regex.Pattern.compile("`" + java.util.regex.Pattern.quote(name) + "(`|\\[| \\{)").matcher(row).find();
    }

    private static void checkFields(Object value, Map<String, Object> schema, String path) {
        assertThat(schema).as(path + " is not in the CRD's schema").isNotNull();
        if (value instanceof Map<?, ?> fields) {
            Map<String, Object> properties = schema.get("properties") == null ? null : map(schema.get("properties"));
            if (properties == null) {
                assertThat(schema.get("additionalProperties")).as(path + " has no properties in the schema").isNotNull();
                return;
            }
            fields.forEach((name, child) -> checkFields(child, map(properties.get(name)), path + "." + name));
        } else if (value instanceof List<?> items) {
            assertThat(schema.get("type")).as(path + " is a list in the manifest").isEqualTo("array");
            items.forEach(item -> checkFields(item, map(schema.get("items")), path + "[]"));
        } else if (value instanceof Boolean) {
            assertThat(schema.get("type")).as(path).isEqualTo("boolean");
        } else if (value instanceof Integer) {
            assertThat(schema.get("type")).as(path).isEqualTo("integer");
        } else if (value instanceof String) {
            assertThat(schema.get("type")).as(path).isEqualTo("string");
        }
    }

    @Test
    void rbacNamesOnlyResourcesThatExist() {
        Set<String> known = new HashSet<>();
        crds.forEach(c -> {
            known.add(c.group() + "/" + c.plural());
            if (c.status()) {
                known.add(c.group() + "/" + c.plural() + "/status");
            }
        });
        for (Map<String, Object> role : ofKinds("ClusterRole", "Role")) {
            for (Map<String, Object> rule : rules(role)) {
                for (Object group : (List<?>) rule.get("apiGroups")) {
                    if (group.equals("submariner.io") || group.equals("multicluster.x-k8s.io")) {
                        for (Object resource : (List<?>) rule.get("resources")) {
                            assertThat(known).as(map(role.get("metadata")).get("name") + " names " + group + "/" + resource).contains(group + "/" + resource);
                        }
                    }
                }
            }
        }
    }

    @Test
    void onlyTheGlobalnetControllerMayCreateGlobalIngressIPsOrClusterGlobalEgressIPs() {
        Map<String, String> boundTo = new HashMap<>();
        for (Map<String, Object> binding : ofKinds("ClusterRoleBinding", "RoleBinding")) {
            String role = (String) map(binding.get("roleRef")).get("name");
            for (Object subject : (List<?>) binding.get("subjects")) {
                boundTo.merge(role, (String) map(subject).get("name"), (a, b) -> a + "," + b);
            }
        }
        for (Map<String, Object> role : ofKinds("ClusterRole", "Role")) {
            String name = (String) map(role.get("metadata")).get("name");
            for (Map<String, Object> rule : rules(role)) {
                List<?> resources = (List<?>) rule.get("resources");
                List<?> verbs = (List<?>) rule.get("verbs");
                boolean creates = verbs.contains("create") || verbs.contains("*");
                if (creates && (resources.contains("globalingressips") || resources.contains("clusterglobalegressips"))) {
                    assertThat(name).as("role granting create on " + resources).isEqualTo("periscope-globalnet");
                    assertThat(boundTo.get(name)).as("who holds " + name).isEqualTo("periscope-globalnet");
                }
            }
            Map<String, Object> labels = map(role.get("metadata")).get("labels") == null ? Map.of() : map(map(role.get("metadata")).get("labels"));
            if (labels.keySet().stream().anyMatch(l -> l.startsWith("rbac.authorization.k8s.io/aggregate-to-"))) {
                rules(role).forEach(rule -> assertThat(((List<?>) rule.get("resources")).stream().map(String::valueOf).toList())
                        .as(name + " is aggregated into users' roles").doesNotContain("clusterglobalegressips"));
            }
        }
        Map<String, Object> policy = ofKinds("ValidatingAdmissionPolicy").getFirst();
        assertThat(policy.toString()).contains("system:serviceaccount:submariner-operator:periscope-globalnet", "globalingressips");
    }

    @Test
    void workloadsRunExistingSubcommandsWithExistingServiceAccounts() {
        Set<String> subcommands = new CommandLine(new AgentCommand()).getSubcommands().keySet();
        Set<String> accounts = new HashSet<>();
        ofKinds("ServiceAccount").forEach(a -> accounts.add((String) map(a.get("metadata")).get("name")));
        List<Map<String, Object>> workloads = ofKinds("Deployment", "DaemonSet");
        assertThat(workloads).hasSize(6);
        for (Map<String, Object> workload : workloads) {
            Map<String, Object> pod = map(map(map(workload.get("spec")).get("template")).get("spec"));
            assertThat(accounts).contains((String) pod.get("serviceAccountName"));
            for (Object c : (List<?>) pod.get("containers")) {
                List<?> args = (List<?>) map(c).get("args");
                assertThat(subcommands).as(workload.get("__file") + " args").contains((String) args.getFirst());
                CommandLine line = new CommandLine(new AgentCommand());
                line.parseArgs(args.stream().map(String::valueOf).toArray(String[]::new));
            }
        }
        Map<String, Object> gateway = workloads.stream().filter(w -> "periscope-gateway".equals(map(w.get("metadata")).get("name"))).findFirst().orElseThrow();
        assertThat(map(map(map(map(gateway.get("spec")).get("template")).get("spec")).get("nodeSelector"))).containsEntry("submariner.io/gateway", "true");
        Map<String, Object> globalnet = workloads.stream().filter(w -> "periscope-globalnet".equals(map(w.get("metadata")).get("name"))).findFirst().orElseThrow();
        assertThat(map(globalnet.get("spec")).get("replicas")).isEqualTo(1);
    }

    @Test
    void theNetworkPluginSyncerIsOneReplicaThatReadsTheClusterHoldsItsLeaseAndWritesNothingElse() {
        Map<String, Object> syncer = ofKinds("Deployment").stream()
                .filter(w -> "periscope-network-plugin-syncer".equals(map(w.get("metadata")).get("name"))).findFirst().orElseThrow();
        assertThat(map(syncer.get("spec")).get("replicas")).isEqualTo(1);
        String account = (String) map(map(map(syncer.get("spec")).get("template")).get("spec")).get("serviceAccountName");
        Set<String> roles = new HashSet<>();
        for (Map<String, Object> binding : ofKinds("ClusterRoleBinding", "RoleBinding")) {
            if (((List<?>) binding.get("subjects")).stream().anyMatch(subject -> account.equals(map(subject).get("name")))) {
                roles.add((String) map(binding.get("roleRef")).get("name"));
            }
        }
        Map<String, Set<String>> verbsByResource = new HashMap<>();
        for (Map<String, Object> role : ofKinds("ClusterRole", "Role")) {
            if (roles.contains((String) map(role.get("metadata")).get("name"))) {
                for (Map<String, Object> rule : rules(role)) {
                    for (Object resource : (List<?>) rule.get("resources")) {
                        verbsByResource.computeIfAbsent((String) resource, r -> new HashSet<>()).addAll(((List<?>) rule.get("verbs")).stream().map(String::valueOf).toList());
                    }
                }
            }
        }
        // What its informers watch, and its lease.
        for (String watched : List.of("nodes", "pods", "services", "endpointslices", "serviceexports", "clusters", "endpoints", "clusterglobalegressips",
                "globalegressips", "globalingressips", "clusterconnectivitypolicies", "clusterconnectionpolicies", "leases")) {
            assertThat(verbsByResource.get(watched)).as(account + " on " + watched).contains("list", "watch");
        }
        assertThat(verbsByResource.get("leases")).contains("get", "create", "update");
        verbsByResource.forEach((resource, verbs) -> {
            if (!resource.equals("leases")) {
                assertThat(verbs).as(account + " on " + resource).containsOnly("get", "list", "watch");
            }
        });
    }

    private static List<Map<String, Object>> ofKinds(String... kinds) {
        return objects.stream().filter(o -> List.of(kinds).contains(o.get("kind"))).toList();
    }

    private static List<Map<String, Object>> rules(Map<String, Object> role) {
        return ((List<?>) role.get("rules")).stream().map(DeployManifestsAgreeWithTheGeneratedCrdsTest::map).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    private static List<Map<String, Object>> documents(Path file) throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
            if (document != null) {
                documents.add(new HashMap<>(map(document)));
            }
        }
        return documents;
    }
}
