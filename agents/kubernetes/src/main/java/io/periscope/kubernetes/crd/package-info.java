/**
 * The custom resources the agents read and write, as Java classes from which fabric8's
 * crd-generator writes the CRD YAML at build time ({@code target/classes/META-INF/fabric8/}).
 * JSON field names are upstream Submariner's (seed 002 and 004 where they speak), so objects written
 * by upstream tools read the same. Specs and statuses are records: they are replaced, never mutated.
 */
package io.periscope.kubernetes.crd;
