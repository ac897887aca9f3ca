package dev.sluice.engine.tas;

import java.util.Map;

/** The TAS usage of one admitted pod set: its assignment and per-pod requests (milli-units). */
public record TasUsage(TopologyAssignment assignment, Map<String, Long> singlePodRequests) {
    public TasUsage {
        singlePodRequests = singlePodRequests == null ? Map.of() : Map.copyOf(singlePodRequests);
    }
}
