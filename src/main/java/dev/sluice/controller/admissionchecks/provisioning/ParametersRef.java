package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.AdmissionCheckParametersReference;
import dev.sluice.api.v1beta2.Kueue;

/**
 * Whether an AdmissionCheck's parameters name a ProvisioningRequestConfig, with Kueue's words when they do not
 * ({@code pkg/util/admissioncheck}: {@code refValidForGK}).
 */
final class ParametersRef {

    static final String CONFIG_KIND = "ProvisioningRequestConfig";

    private ParametersRef() {
    }

    /** Why the reference cannot name a ProvisioningRequestConfig, or null when it can. */
    static String problem(AdmissionCheckParametersReference ref) {
        if (ref == null) {
            return "missing parameters reference";
        }
        if (ref.getName() == null || ref.getName().isEmpty()) {
            return "empty name: bad parameters reference";
        }
        if (!Kueue.GROUP.equals(ref.getApiGroup())) {
            return "wrong group \"" + nz(ref.getApiGroup()) + "\", expecting \"" + Kueue.GROUP
                    + "\": bad parameters reference";
        }
        if (!CONFIG_KIND.equals(ref.getKind())) {
            return "wrong kind \"" + nz(ref.getKind()) + "\", expecting \"" + CONFIG_KIND + "\": bad parameters reference";
        }
        return null;
    }

    /** The API server's words for a config that is not there. */
    static String notFound(String name) {
        return "provisioningrequestconfigs.kueue.x-k8s.io \"" + name + "\" not found";
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
