package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Base for kinds whose pod sets are pod templates embedded in the job and which are held by
 * {@code spec.suspend}: reading, starting and restoring work on the raw templates in place.
 */
public abstract class PodTemplateJobKind implements JobKind {

    /** A pod set as found in the raw tree: the live template map, its path, and its pod count. */
    protected record RawPodSet(String name, Map<String, Object> template, String path, int count) {
    }

    /** The pod sets in order; {@code template} maps are the live ones inside {@code job}. */
    protected abstract List<RawPodSet> rawPodSets(GenericKubernetesResource job);

    /** Applies a partial-admission count to one pod set (called only when it differs from the current). */
    protected abstract void setCount(GenericKubernetesResource job, RawPodSet podSet, int count);

    /** Whether a count other than the pod set's full count can be applied. */
    protected abstract boolean supportsPartialCount();

    @Override
    public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<PodSetTemplate> out = new ArrayList<>();
        for (RawPodSet raw : rawPodSets(job)) {
            PodTemplateSpec template = Models.podTemplate(raw.template(), ref, raw.path());
            if (template.getSpec() == null || template.getSpec().getContainers() == null
                    || template.getSpec().getContainers().isEmpty()) {
                throw new InvalidJobException(ref, raw.path() + ".spec.containers", "is empty",
                        "give the pod template at least one container");
            }
            try {
                PodDemand.of(template.getSpec());
            } catch (InvalidJobException e) {
                throw e.under(ref, raw.path() + ".spec");
            }
            out.add(new PodSetTemplate(raw.name(), raw.count(), null, template));
        }
        return List.copyOf(out);
    }

    @Override
    public boolean isSuspended(GenericKubernetesResource job) {
        return RawTree.flag(spec(job), "suspend", Models.ref(job), "spec.suspend");
    }

    @Override
    public void hold(GenericKubernetesResource job) {
        specOrCreate(job).put("suspend", true);
    }

    @Override
    public void start(GenericKubernetesResource job, List<PodSetStart> starts) {
        String ref = Models.ref(job);
        List<RawPodSet> podSets = rawPodSets(job);
        Map<String, PodSetStart> byName = matchByName(ref, podSets, starts, PodSetStart::podSet, "start");
        // Check every pod set before touching any, so a conflict leaves the job as it was.
        for (RawPodSet ps : podSets) {
            PodSetStart st = byName.get(ps.name());
            Map<String, Object> selector = RawTree.object(
                    RawTree.object(ps.template(), "spec", ref, ps.path() + ".spec"), "nodeSelector", ref,
                    ps.path() + ".spec.nodeSelector");
            for (Map.Entry<String, String> label : st.nodeSelector().entrySet()) {
                Object existing = selector == null ? null : selector.get(label.getKey());
                if (existing != null && !String.valueOf(existing).equals(label.getValue())) {
                    throw new StartConflictException(ps.name(), label.getKey(), String.valueOf(existing),
                            label.getValue());
                }
            }
            if (st.count() != null && st.count() > ps.count()) {
                throw new IllegalArgumentException(ref + ": pod set " + ps.name() + " cannot start with "
                        + st.count() + " pods, more than its " + ps.count());
            }
            if (st.count() != null && st.count() != ps.count() && !supportsPartialCount()) {
                throw new IllegalArgumentException(ref + ": pod set " + ps.name()
                        + " cannot start with " + st.count() + " of " + ps.count()
                        + " pods; this kind does not support partial admission");
            }
            Models.podTemplate(ps.template(), ref, ps.path());
        }
        for (RawPodSet ps : podSets) {
            PodSetStart st = byName.get(ps.name());
            Map<String, Object> spec = RawTree.objectOrCreate(ps.template(), "spec", ref, ps.path() + ".spec");
            if (!st.nodeSelector().isEmpty()) {
                RawTree.objectOrCreate(spec, "nodeSelector", ref, ps.path() + ".spec.nodeSelector")
                        .putAll(new TreeMap<>(st.nodeSelector()));
            }
            addTolerations(ref, ps, spec, st.tolerations());
            Map<String, Object> metadata = RawTree.objectOrCreate(ps.template(), "metadata", ref,
                    ps.path() + ".metadata");
            RawTree.objectOrCreate(metadata, "labels", ref, ps.path() + ".metadata.labels")
                    .put(WellKnown.POD_SET, ps.name());
            if (st.count() != null && st.count() != ps.count()) {
                setCount(job, ps, st.count());
            }
        }
        specOrCreate(job).put("suspend", false);
    }

    @Override
    public void restore(GenericKubernetesResource job, List<PodSetTemplate> originals) {
        String ref = Models.ref(job);
        List<RawPodSet> podSets = rawPodSets(job);
        Map<String, PodSetTemplate> byName = matchByName(ref, podSets, originals, PodSetTemplate::name, "restore");
        for (RawPodSet ps : podSets) {
            PodSetTemplate original = byName.get(ps.name());
            ps.template().clear();
            ps.template().putAll(Models.raw(original.template()));
            if (supportsPartialCount() && original.count() != ps.count()) {
                setCount(job, ps, original.count());
            }
        }
        hold(job);
    }

    /** The job's {@code spec}, or null. */
    protected static Map<String, Object> spec(GenericKubernetesResource job) {
        return RawTree.object(job.getAdditionalProperties(), "spec", Models.ref(job), "spec");
    }

    protected static Map<String, Object> specOrCreate(GenericKubernetesResource job) {
        return RawTree.objectOrCreate(job.getAdditionalProperties(), "spec", Models.ref(job), "spec");
    }

    /** The job's {@code status}, or null. */
    protected static Map<String, Object> status(GenericKubernetesResource job) {
        return RawTree.object(job.getAdditionalProperties(), "status", Models.ref(job), "status");
    }

    /** Job's per-Job pod count: parallelism (default 1), lowered to completions when smaller. */
    protected static int jobPodCount(Map<String, Object> jobSpec, String ref, String path) {
        Integer parallelism = RawTree.count(jobSpec, "parallelism", ref, path + ".parallelism");
        Integer completions = RawTree.count(jobSpec, "completions", ref, path + ".completions");
        int count = parallelism == null ? 1 : parallelism;
        if (completions != null && completions < count) {
            count = completions;
        }
        return count;
    }

    private static void addTolerations(String ref, RawPodSet ps, Map<String, Object> spec, List<Toleration> add) {
        if (add.isEmpty()) {
            return;
        }
        List<Object> raw = RawTree.listOrCreate(spec, "tolerations", ref, ps.path() + ".spec.tolerations");
        List<Toleration> present = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            present.add(Models.toleration(raw.get(i), ref, ps.path() + ".spec.tolerations[" + i + "]"));
        }
        for (Toleration t : add) {
            if (!present.contains(t)) {
                present.add(t);
                raw.add(Models.raw(t));
            }
        }
    }

    private <T> Map<String, T> matchByName(String ref, List<RawPodSet> podSets, List<T> given,
            Function<T, String> name, String what) {
        Map<String, T> byName = new HashMap<>();
        for (T t : Objects.requireNonNull(given, what)) {
            if (byName.put(name.apply(t), t) != null) {
                throw new IllegalArgumentException(
                        ref + ": cannot " + what + ": pod set " + name.apply(t) + " is given twice");
            }
        }
        Set<String> expected = new TreeSet<>();
        podSets.forEach(ps -> expected.add(ps.name()));
        if (!expected.equals(new TreeSet<>(byName.keySet()))) {
            throw new IllegalArgumentException(ref + ": cannot " + what + ": the job has pod sets " + expected
                    + " but " + new TreeSet<>(byName.keySet()) + " were given");
        }
        return new LinkedHashMap<>(byName);
    }
}
