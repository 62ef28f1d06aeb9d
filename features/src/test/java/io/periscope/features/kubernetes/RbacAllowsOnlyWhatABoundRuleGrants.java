package io.periscope.features.kubernetes;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The authorizer the scenarios' user requests go through, on deploy/'s roles and on small roles of its own. */
class RbacAllowsOnlyWhatABoundRuleGrants {

    private static final Rbac.Subject DEVELOPER = Rbac.Subject.user("developer");

    private static Rbac.Request create(String resource, String namespace) {
        return new Rbac.Request("create", "submariner.io", resource, Optional.ofNullable(namespace), Optional.of("x"));
    }

    @Test
    void aNamespaceEditorCreatesGlobalEgressIPsThereOnlyAndNoClusterGlobalEgressIP() {
        Rbac rbac = Rbac.fromManifests(Path.of("..", "deploy")).bindUserInNamespace("developer", "ns1", "edit");

        assertThat(rbac.decide(DEVELOPER, create("globalegressips", "ns1")).allowed()).isTrue();
        assertThat(rbac.decide(DEVELOPER, create("globalegressips", "ns2")).allowed()).isFalse();
        assertThat(rbac.decide(DEVELOPER, create("clusterglobalegressips", null)).allowed()).isFalse();
        assertThat(rbac.decide(DEVELOPER, create("globalingressips", "ns1")).allowed()).isFalse();
        assertThat(rbac.decide(DEVELOPER, new Rbac.Request("get", "submariner.io", "globalingressips", Optional.of("ns1"), Optional.empty()))
                .allowed()).as("view is aggregated into edit").isTrue();
    }

    @Test
    void clusterAdminsAndTheControllerCreateClusterGlobalEgressIPsAndTheGatewayOnlyWritesStatus() {
        Rbac rbac = Rbac.fromManifests(Path.of("..", "deploy"));
        Rbac.Subject admin = new Rbac.Subject("root", Set.of("system:masters"));
        Rbac.Subject globalnet = Rbac.Subject.serviceAccount("submariner-operator", "periscope-globalnet");
        Rbac.Subject gateway = Rbac.Subject.serviceAccount("submariner-operator", "periscope-gateway");

        assertThat(rbac.decide(admin, create("clusterglobalegressips", null)).allowed()).isTrue();
        assertThat(rbac.decide(globalnet, create("clusterglobalegressips", null)).allowed()).isTrue();
        assertThat(rbac.decide(gateway, create("clusterglobalegressips", null)).allowed()).isFalse();
        assertThat(rbac.decide(gateway, new Rbac.Request("patch", "submariner.io", "globalegressips/status", Optional.of("ns1"), Optional.empty()))
                .allowed()).isTrue();
        assertThat(rbac.decide(gateway, new Rbac.Request("patch", "submariner.io", "globalegressips", Optional.of("ns1"), Optional.empty()))
                .allowed()).as("the object itself, not its status").isFalse();
    }

    @Test
    void aRoleGrantsInItsNamespaceAndResourceNamesAndWildcardsAreHonoured() {
        Rbac rbac = Rbac.kubernetesDefaults()
                .add(Map.of("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "Role",
                        "metadata", Map.of("name", "one-lease", "namespace", "ns1"),
                        "rules", List.of(Map.of("apiGroups", List.of("*"), "resources", List.of("leases"), "verbs", List.of("update"),
                                "resourceNames", List.of("x")))), "test")
                .add(Map.of("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "RoleBinding",
                        "metadata", Map.of("name", "b", "namespace", "ns1"),
                        "roleRef", Map.of("kind", "Role", "name", "one-lease"),
                        "subjects", List.of(Map.of("kind", "Group", "name", "system:authenticated"))), "test");

        assertThat(rbac.decide(DEVELOPER, new Rbac.Request("update", "coordination.k8s.io", "leases", Optional.of("ns1"), Optional.of("x")))
                .allowed()).isTrue();
        assertThat(rbac.decide(DEVELOPER, new Rbac.Request("update", "coordination.k8s.io", "leases", Optional.of("ns1"), Optional.of("y")))
                .allowed()).isFalse();
        assertThat(rbac.decide(DEVELOPER, new Rbac.Request("update", "coordination.k8s.io", "leases", Optional.of("ns2"), Optional.of("x")))
                .allowed()).isFalse();
        assertThat(rbac.decide(DEVELOPER, new Rbac.Request("delete", "coordination.k8s.io", "leases", Optional.of("ns1"), Optional.of("x")))
                .allowed()).isFalse();
    }
}
