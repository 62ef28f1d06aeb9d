package io.periscope.features;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

import static io.cucumber.junit.platform.engine.Constants.FILTER_TAGS_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.GLUE_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.PLUGIN_PROPERTY_NAME;

/**
 * The same scenarios, same text, in the lab: real namespaces and real packets. The lab glue skips
 * every scenario with the reason when this machine or this build cannot run the lab.
 */
@Suite
@IncludeEngines("cucumber")
@SelectClasspathResource("features")
@ConfigurationParameter(key = GLUE_PROPERTY_NAME, value = "io.periscope.features.steps,io.periscope.features.lab")
@ConfigurationParameter(key = FILTER_TAGS_PROPERTY_NAME, value = "not @pending")
@ConfigurationParameter(key = PLUGIN_PROPERTY_NAME, value = "summary,"
        + "html:target/cucumber/lab.html,"
        + "json:target/cucumber/lab.json,"
        + "io.periscope.features.report.PendingScenarioReport:target/cucumber/lab-pending.md,"
        + "io.periscope.features.report.AcceptanceRunReport:target/acceptance/lab.json")
public class LabAcceptance {
}
