package dev.sluice.controller;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The controller with Kueue's admission fair sharing switched on, sampled often so a test sees usage quickly. */
public class AdmissionFairSharingProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("sluice.admission-fair-sharing.enabled", "true",
                "sluice.admission-fair-sharing.usage-half-life-time", "2s",
                "sluice.admission-fair-sharing.usage-sampling-interval", "200ms");
    }
}
