package io.periscope.features;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

import static io.cucumber.junit.platform.engine.Constants.FILTER_TAGS_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.GLUE_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.PLUGIN_PROPERTY_NAME;

/**
 * Every scenario of the seed documents on the simulator. Scenarios tagged {@code @pending} describe
 * behaviour Periscope does not have yet: they are not run, and the pending report lists and counts them.
 */
@Suite
@IncludeEngines("cucumber")
@SelectClasspathResource("features")
@ConfigurationParameter(key = GLUE_PROPERTY_NAME, value = "io.periscope.features.steps,io.periscope.features.simulator")
@ConfigurationParameter(key = FILTER_TAGS_PROPERTY_NAME, value = "not @pending")
@ConfigurationParameter(key = PLUGIN_PROPERTY_NAME, value = "summary,"
        + "html:target/cucumber/simulator.html,"
        + "json:target/cucumber/simulator.json,"
        + "io.periscope.features.report.PendingScenarioReport:target/cucumber/simulator-pending.md,"
        + "io.periscope.features.report.AcceptanceRunReport:target/acceptance/simulator.json")
public class SimulatorAcceptance {
}
