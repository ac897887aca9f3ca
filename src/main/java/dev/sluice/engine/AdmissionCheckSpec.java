package dev.sluice.engine;

import java.util.Objects;

/**
 * An AdmissionCheck object as admission needs it: the controller that decides it (spec.controllerName) and whether
 * that controller says it is Active (its status condition); an inactive or missing check makes every ClusterQueue
 * naming it inactive.
 */
public record AdmissionCheckSpec(String name, String controllerName, boolean active) {
    /** Kueue's controller names with extra rules on a ClusterQueue. */
    public static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";
    public static final String PROVISIONING_REQUEST = "kueue.x-k8s.io/provisioning-request";

    public AdmissionCheckSpec {
        Objects.requireNonNull(name, "admission check name");
        controllerName = controllerName == null ? "" : controllerName;
    }
}
