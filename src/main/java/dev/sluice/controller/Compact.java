package dev.sluice.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Shrinks cached objects without changing what they say. JSON parsing gives every object its own copy of each string
 * and an empty map for unknown fields; with tens of thousands of Workloads cached, the copies of the same namespace,
 * label value, condition reason or timestamp are a large part of the heap. Repeated values are interned (the JVM's
 * string table holds them weakly, so values no object uses any more go away), maps are copied at their exact size,
 * and empty unknown-field maps are replaced by one shared empty map. Cached objects are never modified in place
 * (writes change a clone), so a shared immutable map is safe.
 */
final class Compact {

    private Compact() {
    }

    /** The canonical copy of a value that many objects share (a namespace, a reason, a timestamp). */
    static String shared(String value) {
        return value == null ? null : value.intern();
    }

    static void meta(ObjectMeta meta) {
        meta.setNamespace(shared(meta.getNamespace()));
        meta.setCreationTimestamp(shared(meta.getCreationTimestamp()));
        meta.setLabels(map(meta.getLabels(), Compact::shared));
        meta.setAnnotations(map(meta.getAnnotations(), Compact::shared));
        meta.setAdditionalProperties(noExtras(meta.getAdditionalProperties()));
    }

    static void conditions(List<Condition> conditions) {
        if (conditions == null) {
            return;
        }
        for (Condition c : conditions) {
            c.setType(shared(c.getType()));
            c.setStatus(shared(c.getStatus()));
            c.setReason(shared(c.getReason()));
            c.setMessage(shared(c.getMessage()));
            c.setLastTransitionTime(shared(c.getLastTransitionTime()));
            c.setAdditionalProperties(noExtras(c.getAdditionalProperties()));
        }
    }

    static Quantity quantity(Quantity q) {
        if (q != null) {
            q.setAmount(shared(q.getAmount()));
            q.setFormat(shared(q.getFormat()));
            q.setAdditionalProperties(noExtras(q.getAdditionalProperties()));
        }
        return q;
    }

    /**
     * A copy of the map at its exact size, in the same order, keys interned and each value passed through
     * {@code value}; null and empty maps are returned as they are.
     */
    static <V> Map<String, V> map(Map<String, V> map, UnaryOperator<V> value) {
        if (map == null || map.isEmpty()) {
            return map;
        }
        Map<String, V> copy = new LinkedHashMap<>((int) (map.size() / 0.75f) + 1);
        map.forEach((k, v) -> copy.put(shared(k), value.apply(v)));
        return copy;
    }

    /** The shared empty map in place of an empty map of unknown fields. */
    static Map<String, Object> noExtras(Map<String, Object> extras) {
        return extras == null || extras.isEmpty() ? Collections.emptyMap() : extras;
    }
}
