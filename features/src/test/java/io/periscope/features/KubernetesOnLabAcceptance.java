package io.periscope.features;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

import static io.cucumber.junit.platform.engine.Constants.FILTER_TAGS_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.GLUE_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.PLUGIN_PROPERTY_NAME;

/**
 * The seeds' Kubernetes scenarios (tagged {@code @kubernetes}: CR status, Globalnet allocations,
 * exports and imports, Endpoints, multiple active gateways, a gateway failure) on the third backend:
 * the lab's namespaces programmed by the production Kubernetes agents, each a process in the
 * namespace of the node it runs on, against fabric8's mock API servers in CRUD mode (in this JVM)
 * standing in for kube-apiserver. As root; otherwise every
 * scenario is skipped with the reason.
 */
@Suite
@IncludeEngines("cucumber")
@SelectClasspathResource("features")
@ConfigurationParameter(key = GLUE_PROPERTY_NAME, value = "io.periscope.features.steps,io.periscope.features.kuberneteslab")
@ConfigurationParameter(key = FILTER_TAGS_PROPERTY_NAME, value = "@kubernetes and not @pending and not @simulator-only")
@ConfigurationParameter(key = PLUGIN_PROPERTY_NAME, value = "summary,"
        + "html:target/cucumber/kubernetes-on-lab.html,"
        + "json:target/cucumber/kubernetes-on-lab.json,"
        + "io.periscope.features.report.AcceptanceRunReport:target/acceptance/kubernetes-on-lab.json")
public class KubernetesOnLabAcceptance {
}
