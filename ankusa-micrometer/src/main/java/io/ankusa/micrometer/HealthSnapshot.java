package io.ankusa.micrometer;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.TroubledTenants;

/**
 * One measurement of a pipeline's health for the health meters.
 *
 * @param health   the pipeline's health facts
 * @param troubled its top tenants by oldest due age and by failure rate
 */
record HealthSnapshot(DispatchHealth health, TroubledTenants troubled) {

    /** Measures {@code pipeline} now, its top {@code topTenants} troubled tenants included. */
    static HealthSnapshot of(Pipeline pipeline, int topTenants) {
        return new HealthSnapshot(pipeline.dispatchHealth(), pipeline.troubledTenants(topTenants));
    }
}
