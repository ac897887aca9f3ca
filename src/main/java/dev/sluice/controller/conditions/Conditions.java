package dev.sluice.controller.conditions;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Sets a condition in a list the way Kubernetes expects: lastTransitionTime changes only when the status does, so
 * writing the same condition twice changes nothing (and callers can skip the write).
 */
public final class Conditions {

    private Conditions() {
    }

    /** Returns a new list with the condition set; the input is not modified. */
    public static List<Condition> set(List<Condition> current, String type, boolean status, String reason,
            String message, Long observedGeneration, Instant now) {
        List<Condition> result = new ArrayList<>(current == null ? List.of() : current);
        String statusText = status ? "True" : "False";
        Condition previous = find(result, type);
        String transition = previous != null && statusText.equals(previous.getStatus())
                ? previous.getLastTransitionTime()
                : now.truncatedTo(ChronoUnit.SECONDS).toString();
        Condition next = new ConditionBuilder().withType(type).withStatus(statusText).withReason(reason)
                .withMessage(message).withObservedGeneration(observedGeneration).withLastTransitionTime(transition)
                .build();
        if (previous != null) {
            result.set(result.indexOf(previous), next);
        } else {
            result.add(next);
        }
        return result;
    }

    public static Condition find(List<Condition> conditions, String type) {
        if (conditions == null) {
            return null;
        }
        for (Condition c : conditions) {
            if (Objects.equals(type, c.getType())) {
                return c;
            }
        }
        return null;
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        Condition c = find(conditions, type);
        return c != null && "True".equals(c.getStatus());
    }
}
