package dev.sluice.controller;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The controller with Kueue's fair sharing switched on (sluice.fair-sharing.enabled). */
public class FairSharingProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("sluice.fair-sharing.enabled", "true");
    }
}
