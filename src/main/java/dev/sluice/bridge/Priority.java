package dev.sluice.bridge;

import dev.sluice.api.v1beta2.Kueue;
import dev.sluice.jobs.WellKnown;
import java.util.Optional;

/**
 * A workload's priority, resolved as Kueue does: the job's {@code kueue.x-k8s.io/priority-class} label names a
 * WorkloadPriorityClass; otherwise the pod templates' priorityClassName names a PriorityClass; otherwise the
 * global-default PriorityClass; otherwise 0.
 */
public record Priority(String className, String source, int value) {

    public static final Priority NONE = new Priority(null, "", 0);

    /** The Workload's {@code spec.priorityClassRef}; null when no class gave the priority. */
    public dev.sluice.api.v1beta2.PriorityClassRef ref() {
        if (className == null) {
            return null;
        }
        return Kueue.PRIORITY_SOURCE_POD_PRIORITY_CLASS.equals(source)
                ? dev.sluice.api.v1beta2.PriorityClassRef.podPriorityClass(className)
                : dev.sluice.api.v1beta2.PriorityClassRef.workloadPriorityClass(className);
    }

    /**
     * @throws InvalidObjectException a named class does not exist (the job waits until it does)
     */
    public static Priority resolve(String job, String workloadPriorityClassLabel, Optional<String> podPriorityClass,
            PriorityClasses classes) {
        if (workloadPriorityClassLabel != null && !workloadPriorityClassLabel.isEmpty()) {
            int value = classes.workloadPriorityClass(workloadPriorityClassLabel)
                    .orElseThrow(() -> new InvalidObjectException(job, "metadata.labels[" + WellKnown.PRIORITY_CLASS + "]",
                            "WorkloadPriorityClass \"" + workloadPriorityClassLabel
                                    + "\" not found; create it or remove the label"));
            return new Priority(workloadPriorityClassLabel, Kueue.PRIORITY_SOURCE_WORKLOAD_PRIORITY_CLASS, value);
        }
        if (podPriorityClass.isPresent()) {
            String name = podPriorityClass.get();
            int value = classes.priorityClass(name)
                    .orElseThrow(() -> new InvalidObjectException(job, "spec.template.spec.priorityClassName",
                            "PriorityClass \"" + name + "\" not found; create it or change priorityClassName"));
            return new Priority(name, Kueue.PRIORITY_SOURCE_POD_PRIORITY_CLASS, value);
        }
        return classes.globalDefault()
                .map(d -> new Priority(d.name(), Kueue.PRIORITY_SOURCE_POD_PRIORITY_CLASS, d.value()))
                .orElse(NONE);
    }
}
