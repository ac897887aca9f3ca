package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.AdmissionCheckStatus;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.controller.write.Writes;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;

/**
 * The {@code Active} condition of the AdmissionChecks of {@code kueue.x-k8s.io/provisioning-request} (Kueue's
 * {@code acReconciler}): True while the parameters name a ProvisioningRequestConfig that exists, else False with
 * reason BadParametersRef and what is wrong. Written, as a JSON patch of the status, only when its status changes.
 */
final class AdmissionCheckReconciler {

    static final String ACTIVE = "Active";
    static final String BAD_PARAMETERS_REF = "BadParametersRef";
    static final String ACTIVE_MESSAGE = "The admission check is active";

    private final ProvisioningCache cache;
    private final Writes writes;
    private final Clock clock;

    AdmissionCheckReconciler(ProvisioningCache cache, Writes writes, Clock clock) {
        this.cache = cache;
        this.writes = writes;
        this.clock = clock;
    }

    void reconcile(String name) {
        AdmissionCheck ac = cache.admissionCheck(name);
        if (ac == null || ac.getSpec() == null
                || !WorkloadReconciler.CONTROLLER_NAME.equals(ac.getSpec().getControllerName())) {
            return;
        }
        String problem = problem(ac);
        boolean active = problem == null;
        Condition current = ac.getStatus() == null ? null : Conditions.find(ac.getStatus().getConditions(), ACTIVE);
        if (current != null && (active ? "True" : "False").equals(current.getStatus())) {
            return; // as Kueue: only a change of status is written
        }
        AdmissionCheck next = Serialization.clone(ac);
        if (next.getStatus() == null) {
            next.setStatus(new AdmissionCheckStatus());
        }
        next.getStatus().setConditions(Conditions.set(next.getStatus().getConditions(), ACTIVE, active,
                active ? ACTIVE : BAD_PARAMETERS_REF, active ? ACTIVE_MESSAGE : problem,
                ac.getMetadata().getGeneration(), clock.instant()));
        writes.queueStatus(ac, next, ac.getStatus(), next.getStatus());
    }

    /** Why the check cannot be active (Kueue's ConfigFromRef error), or null. */
    String problem(AdmissionCheck ac) {
        String problem = ParametersRef.problem(ac.getSpec().getParameters());
        if (problem == null && cache.config(ac.getSpec().getParameters().getName()) == null) {
            problem = ParametersRef.notFound(ac.getSpec().getParameters().getName());
        }
        return problem;
    }
}
