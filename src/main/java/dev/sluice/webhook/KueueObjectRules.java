package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The admission rules of Kueue's queue objects (ClusterQueue, Cohort, LocalQueue, ResourceFlavor,
 * WorkloadPriorityClass; either version) for readers that get objects without an API server in front, such as
 * {@code simulate}: the same rules and words as {@code POST /validate}.
 */
public final class KueueObjectRules {

    private KueueObjectRules() {
    }

    /**
     * What Kueue's webhook and CRD rules refuse in a newly created object, each as the API server words it
     * ({@code spec.x: Invalid value: ...}); empty when the object is valid or of a kind with no rules here.
     */
    public static List<String> problems(JsonNode object) {
        return QueueObjectValidation.errors(object.path("kind").asText(""), object, null).all();
    }
}
