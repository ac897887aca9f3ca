package dev.sluice.controller.store;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.Field;
import java.util.ArrayList;
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
public final class Compact {

    private Compact() {
    }

    /** The canonical copy of a value that many objects share (a namespace, a reason, a timestamp). */
    public static String shared(String value) {
        return value == null ? null : value.intern();
    }

    static void meta(ObjectMeta meta) {
        meta.setNamespace(shared(meta.getNamespace()));
        meta.setCreationTimestamp(shared(meta.getCreationTimestamp()));
        meta.setLabels(map(meta.getLabels(), Compact::shared));
        meta.setAnnotations(map(meta.getAnnotations(), Compact::shared));
        meta.setAdditionalProperties(noExtras(meta.getAdditionalProperties()));
        meta.setOwnerReferences(noItems(meta.getOwnerReferences()));
        meta.setFinalizers(noItems(meta.getFinalizers()));
    }

    /**
     * A small map as a {@link PackedMap} (one array, unchangeable), keys shared and each value passed through
     * {@code value}; null, empty and large maps as {@link #map} leaves them. For objects of which nothing changes a
     * map in place: the Workload cache.
     */
    static <V> Map<String, V> packed(Map<String, V> map, UnaryOperator<V> value) {
        if (map == null || map.isEmpty() || map instanceof PackedMap) {
            return map;
        }
        return map.size() <= PackedMap.MAX_SIZE ? PackedMap.of(map, value) : map(map, value);
    }

    /**
     * The shared empty list in place of an empty list (fabric8 gives each ObjectMeta an empty list of its own for
     * finalizers and owners); any other list at its exact size.
     */
    static <T> List<T> noItems(List<T> list) {
        if (list != null && list.isEmpty()) {
            return Collections.emptyList();
        }
        trim(list);
        return list;
    }

    /**
     * A list at its exact size: Jackson fills an ArrayList from its default capacity of ten, so a list of one
     * condition keeps an array of ten slots. The list stays the same (changeable) object.
     */
    static void trim(List<?> list) {
        if (list instanceof ArrayList<?> a) {
            a.trimToSize();
        }
    }

    /**
     * fabric8's CustomResource computes its API version ("group/version") and CRD name ("plural.group") anew in the
     * constructor of every object and keeps both in final fields of its own (its setters ignore a value): two strings
     * of about 64 bytes each per cached Workload, equal in all of them. These are replaced by their shared copy. When
     * the JVM refuses the reflective write, the object keeps its own copies (nothing else changes).
     */
    static void customResource(CustomResource<?, ?> resource) {
        if (API_VERSION == null || CRD_NAME == null) {
            return;
        }
        try {
            String apiVersion = (String) API_VERSION.get(resource);
            String crdName = (String) CRD_NAME.get(resource);
            if (apiVersion != null) {
                API_VERSION.set(resource, apiVersion.intern());
            }
            if (crdName != null) {
                CRD_NAME.set(resource, crdName.intern());
            }
        } catch (IllegalAccessException | RuntimeException refused) {
            // keeps its own copies
        }
    }

    private static final Field API_VERSION = customResourceField("apiVersion");
    private static final Field CRD_NAME = customResourceField("crdName");

    private static Field customResourceField(String name) {
        try {
            Field f = CustomResource.class.getDeclaredField(name);
            f.setAccessible(true);
            return f.getType() == String.class ? f : null;
        } catch (NoSuchFieldException | RuntimeException unavailable) {
            return null; // another fabric8 version: nothing to share
        }
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
        trim(conditions);
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
