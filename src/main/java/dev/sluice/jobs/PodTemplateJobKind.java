package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Base for kinds whose pod sets are pod templates embedded in the job, held by a suspend field (and, for some,
 * the ack-kube-queue annotation; see {@link #holdStyle}): reading, starting and restoring work on the raw
 * templates in place.
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
    public List<Map<String, Object>> podTemplates(GenericKubernetesResource job) {
        List<RawPodSet> podSets = rawPodSets(job);
        List<Map<String, Object>> out = new ArrayList<>(podSets.size());
        for (RawPodSet raw : podSets) {
            if (raw.template() != null) {
                out.add(raw.template());
            }
        }
        return out;
    }

    @Override
    public String podTemplatePath(GenericKubernetesResource job, int podSet) {
        List<RawPodSet> podSets = rawPodSets(job);
        return podSet >= 0 && podSet < podSets.size() ? podSets.get(podSet).path() : null;
    }

    @Override
    public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<PodSetTemplate> out = new ArrayList<>();
        for (RawPodSet raw : rawPodSets(job)) {
            out.add(podSet(ref, raw.name(), raw.count(), raw.template(), raw.path()));
        }
        return List.copyOf(out);
    }

    /** One pod set from its raw template at {@code path}: refused, naming the field, without a container or with bad requests. */
    static PodSetTemplate podSet(String ref, String name, int count, Map<String, Object> raw, String path) {
        PodTemplateSpec template = Models.podTemplate(raw, ref, path);
        if (template.getSpec() == null || template.getSpec().getContainers() == null
                || template.getSpec().getContainers().isEmpty()) {
            throw new InvalidJobException(ref, path + ".spec.containers", "is empty",
                    "give the pod template at least one container");
        }
        try {
            PodDemand.of(template.getSpec());
        } catch (InvalidJobException e) {
            throw e.under(ref, path + ".spec");
        }
        return new PodSetTemplate(name, count, null, template);
    }

    /** How the kind is held; {@code spec.suspend} unless overridden. */
    protected HoldStyle holdStyle() {
        return HoldStyle.SPEC_SUSPEND;
    }

    @Override
    public boolean isSuspended(GenericKubernetesResource job) {
        return holdStyle().isHeld(job);
    }

    /** Holds the job the way it was held before (see {@link HoldStyle}); a new job the kind's way. */
    @Override
    public void hold(GenericKubernetesResource job) {
        holdStyle().hold(job);
    }

    @Override
    public void start(GenericKubernetesResource job, List<PodSetStart> starts) {
        String ref = Models.ref(job);
        List<RawPodSet> podSets = rawPodSets(job);
        Map<String, PodSetStart> byName = PodSetEdits.matchByName(ref, names(podSets), starts, PodSetStart::podSet,
                "start");
        // Check every pod set before touching any, so a conflict leaves the job as it was.
        for (RawPodSet ps : podSets) {
            PodSetStart st = byName.get(ps.name());
            Map<String, Object> selector = RawTree.object(
                    RawTree.object(ps.template(), "spec", ref, ps.path() + ".spec"), "nodeSelector", ref,
                    ps.path() + ".spec.nodeSelector");
            PodSetEdits.checkSelector(ps.name(), selector, st.nodeSelector());
            Map<String, Object> meta = RawTree.object(ps.template(), "metadata", ref, ps.path() + ".metadata");
            PodSetEdits.checkMetadata(ps.name(), "labels",
                    RawTree.object(meta, "labels", ref, ps.path() + ".metadata.labels"), st.labels());
            PodSetEdits.checkMetadata(ps.name(), "annotations",
                    RawTree.object(meta, "annotations", ref, ps.path() + ".metadata.annotations"), st.annotations());
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
            PodSetEdits.addSelector(ref, spec, ps.path() + ".spec", st.nodeSelector());
            PodSetEdits.addTolerations(ref, spec, ps.path() + ".spec", st.tolerations());
            PodSetEdits.addSchedulingGates(ref, spec, ps.path() + ".spec", st.schedulingGates());
            Map<String, Object> metadata = RawTree.objectOrCreate(ps.template(), "metadata", ref,
                    ps.path() + ".metadata");
            PodSetEdits.addMetadata(ref, metadata, ps.path() + ".metadata", "labels", st.labels());
            PodSetEdits.addMetadata(ref, metadata, ps.path() + ".metadata", "annotations", st.annotations());
            RawTree.objectOrCreate(metadata, "labels", ref, ps.path() + ".metadata.labels")
                    .put(WellKnown.POD_SET, ps.name());
            if (st.count() != null && st.count() != ps.count()) {
                setCount(job, ps, st.count());
            }
        }
        holdStyle().release(job);
    }

    @Override
    public void restore(GenericKubernetesResource job, List<PodSetTemplate> originals) {
        String ref = Models.ref(job);
        List<RawPodSet> podSets = rawPodSets(job);
        Map<String, PodSetTemplate> byName = PodSetEdits.matchByName(ref, names(podSets), originals,
                PodSetTemplate::name, "restore");
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

    private static List<String> names(List<RawPodSet> podSets) {
        return podSets.stream().map(RawPodSet::name).toList();
    }
}
