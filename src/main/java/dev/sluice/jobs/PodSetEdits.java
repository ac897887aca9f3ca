package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/** Edits that starting a job makes wherever its kind keeps node selectors, tolerations and labels. */
final class PodSetEdits {
    private PodSetEdits() {
    }

    /** The given starts (or originals) by pod set name; they must name exactly the job's pod sets, once each. */
    static <T> Map<String, T> matchByName(String ref, Collection<String> podSets, List<T> given,
            Function<T, String> name, String what) {
        Map<String, T> byName = new HashMap<>();
        for (T t : Objects.requireNonNull(given, what)) {
            if (byName.put(name.apply(t), t) != null) {
                throw new IllegalArgumentException(
                        ref + ": cannot " + what + ": pod set " + name.apply(t) + " is given twice");
            }
        }
        TreeSet<String> expected = new TreeSet<>(podSets);
        if (!expected.equals(new TreeSet<>(byName.keySet()))) {
            throw new IllegalArgumentException(ref + ": cannot " + what + ": the job has pod sets " + expected
                    + " but " + new TreeSet<>(byName.keySet()) + " were given");
        }
        return new LinkedHashMap<>(byName);
    }

    /** Fails when {@code selector} (nullable) selects one of the flavor's labels with another value. */
    static void checkSelector(String podSet, Map<String, ?> selector, Map<String, String> flavorLabels) {
        for (Map.Entry<String, String> label : flavorLabels.entrySet()) {
            Object existing = selector == null ? null : selector.get(label.getKey());
            if (existing != null && !String.valueOf(existing).equals(label.getValue())) {
                throw new StartConflictException(podSet, label.getKey(), String.valueOf(existing), label.getValue());
            }
        }
    }

    /**
     * Fails when the template's {@code existing} labels or annotations (nullable) have a key of {@code added} with
     * another value, as Kueue's podset.Merge refuses an admission check's update there.
     */
    static void checkMetadata(String podSet, String field, Map<String, ?> existing, Map<String, String> added) {
        for (Map.Entry<String, String> e : added.entrySet()) {
            Object have = existing == null ? null : existing.get(e.getKey());
            if (have != null && !String.valueOf(have).equals(e.getValue())) {
                throw new StartConflictException(podSet, e.getKey(), "pod set " + podSet
                        + ": invalid admission check PodSetUpdate: conflict for " + field + ": conflict for key="
                        + e.getKey() + ", value1=" + have + ", value2=" + e.getValue());
            }
        }
    }

    /** Adds the entries to {@code metadata.<field>} (created when needed). */
    static void addMetadata(String ref, Map<String, Object> metadata, String path, String field,
            Map<String, String> added) {
        if (!added.isEmpty()) {
            RawTree.objectOrCreate(metadata, field, ref, path + "." + field).putAll(new TreeMap<>(added));
        }
    }

    /** Adds the flavor's labels to {@code parent.nodeSelector} (created when needed). */
    static void addSelector(String ref, Map<String, Object> parent, String path, Map<String, String> flavorLabels) {
        if (!flavorLabels.isEmpty()) {
            RawTree.objectOrCreate(parent, "nodeSelector", ref, path + ".nodeSelector")
                    .putAll(new TreeMap<>(flavorLabels));
        }
    }

    /** Appends the scheduling gates not yet in {@code spec.schedulingGates} (created when needed). */
    static void addSchedulingGates(String ref, Map<String, Object> spec, String path, List<String> gates) {
        if (gates.isEmpty()) {
            return;
        }
        List<Object> raw = RawTree.listOrCreate(spec, "schedulingGates", ref, path + ".schedulingGates");
        for (String gate : gates) {
            boolean present = raw.stream().anyMatch(g -> g instanceof Map<?, ?> m && gate.equals(m.get("name")));
            if (!present) {
                raw.add(new java.util.LinkedHashMap<>(Map.of("name", gate)));
            }
        }
    }

    /** Appends the tolerations not yet in {@code parent.tolerations} (created when needed). */
    static void addTolerations(String ref, Map<String, Object> parent, String path, List<Toleration> add) {
        if (add.isEmpty()) {
            return;
        }
        List<Object> raw = RawTree.listOrCreate(parent, "tolerations", ref, path + ".tolerations");
        List<Toleration> present = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            present.add(Models.toleration(raw.get(i), ref, path + ".tolerations[" + i + "]"));
        }
        for (Toleration t : add) {
            if (!present.contains(t)) {
                present.add(t);
                raw.add(Models.raw(t));
            }
        }
    }

    /** Checks that the raw tolerations parse, before anything is changed. */
    static void checkTolerations(String ref, Map<String, Object> parent, String path) {
        List<Object> raw = RawTree.list(parent, "tolerations", ref, path + ".tolerations");
        if (raw != null) {
            for (int i = 0; i < raw.size(); i++) {
                Models.toleration(raw.get(i), ref, path + ".tolerations[" + i + "]");
            }
        }
    }
}
