package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code workload.codeflare.dev/v1beta2} AppWrapper, as Kueue v0.19.2's {@code appwrapper} integration: one pod set per
 * pod set of each component ({@code spec.components[i]}), numbered across components and named
 * {@code <appwrapper name>-<n>}, count = its {@code replicas} (default 1), template = the pod template at its
 * {@code path} inside the component's wrapped object. A component's pod sets are those in
 * {@code status.componentStatus} once the AppWrapper controller filled it for every component, else those it
 * declares ({@code podSets}), else those the AppWrapper project infers for the kinds it knows (Job, JobSet,
 * PyTorchJob, RayCluster, RayJob, Pod, Deployment, StatefulSet). Held by {@code spec.suspend}. Started without
 * touching the wrapped objects: the node selector, tolerations and pod-set label of each pod set go to the component's
 * {@code podSetInfos}, which the AppWrapper controller applies to the pods it creates; stopping clears them.
 * No partial admission. Finished: {@code status.phase} Succeeded, or Failed once the resources are deleted (the
 * {@code ResourcesDeployed} condition no longer True). Active: the AppWrapper's {@code QuotaReserved} condition; pods
 * ready: its {@code PodsReady} condition.
 */
public final class AppWrapperKind implements JobKind {

    private record RawPodSet(String name, int component, int count, Map<String, Object> template, String path) {
    }

    @Override
    public String group() {
        return "workload.codeflare.dev";
    }

    @Override
    public String version() {
        return "v1beta2";
    }

    @Override
    public String kind() {
        return "AppWrapper";
    }

    @Override
    public String plural() {
        return "appwrappers";
    }

    @Override
    public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<PodSetTemplate> out = new ArrayList<>();
        for (RawPodSet raw : rawPodSets(job)) {
            out.add(PodTemplateJobKind.podSet(ref, raw.name(), raw.count(), raw.template(), raw.path()));
        }
        return List.copyOf(out);
    }

    private List<RawPodSet> rawPodSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<Object> components = components(job, ref);
        List<Object> statuses = RawTree.list(status(job), "componentStatus", ref, "status.componentStatus");
        boolean fromStatus = statuses != null && statuses.size() == components.size();
        String name = job.getMetadata() == null ? null : job.getMetadata().getName();
        List<RawPodSet> out = new ArrayList<>();
        for (int c = 0; c < components.size(); c++) {
            String cPath = "spec.components[" + c + "]";
            Map<String, Object> component = RawTree.element(components, c, ref, cPath);
            if (!(component.get("template") instanceof Map)) {
                throw new InvalidJobException(ref, cPath + ".template", "is missing or not an object",
                        "wrap one Kubernetes object (e.g. a batch/v1 Job) in the component's template");
            }
            List<AppWrapperPaths.ComponentPodSet> podSets;
            String listPath;
            if (fromStatus) {
                listPath = "status.componentStatus[" + c + "].podSets";
                podSets = declared(RawTree.element(statuses, c, ref, "status.componentStatus[" + c + "]"), ref,
                        listPath);
            } else {
                listPath = cPath + ".podSets";
                podSets = declared(component, ref, listPath);
                if (podSets.isEmpty()) {
                    podSets = AppWrapperPaths.infer(component);
                }
            }
            for (int p = 0; p < podSets.size(); p++) {
                AppWrapperPaths.ComponentPodSet ps = podSets.get(p);
                String where = cPath + ".template" + ps.path().substring("template".length());
                if (!(AppWrapperPaths.at(component, ps.path()) instanceof Map<?, ?> found)) {
                    throw new InvalidJobException(ref, listPath + "[" + p + "].path", "\"" + ps.path()
                            + "\" names no object in the component", "give the path of a pod template, e.g. "
                            + "template.spec.template for a batch/v1 Job");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> template = podTemplateOf((Map<String, Object>) found);
                out.add(new RawPodSet((name + "-" + out.size()).toLowerCase(Locale.ROOT), c, ps.replicas(), template,
                        where));
            }
        }
        if (out.size() > PodSetTemplate.MAX_PER_WORKLOAD) {
            throw new InvalidJobException(ref, "spec.components", "has " + out.size() + " pod sets in all, more than the "
                    + PodSetTemplate.MAX_PER_WORKLOAD + " a Workload holds", "wrap fewer pod templates in one AppWrapper");
        }
        return out;
    }

    /** {@code podSets} of a component or a component status: path and replicas (default 1). */
    private static List<AppWrapperPaths.ComponentPodSet> declared(Map<String, Object> parent, String ref, String path) {
        List<Object> list = RawTree.list(parent, "podSets", ref, path);
        if (list == null) {
            return List.of();
        }
        List<AppWrapperPaths.ComponentPodSet> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> ps = RawTree.element(list, i, ref, path + "[" + i + "]");
            String p = RawTree.string(ps, "path", ref, path + "[" + i + "].path");
            if (p == null || !p.startsWith("template")) {
                throw new InvalidJobException(ref, path + "[" + i + "].path", "must start with \"template\"",
                        "give the path of the pod template inside the component, e.g. template.spec.template");
            }
            Integer replicas = RawTree.count(ps, "replicas", ref, path + "[" + i + "].replicas");
            out.add(new AppWrapperPaths.ComponentPodSet(p, replicas == null ? 1 : replicas));
        }
        return out;
    }

    /**
     * The pod template Kueue takes from the object at a pod set's path (which may be a Pod): its labels and
     * annotations, and its spec.
     */
    private static Map<String, Object> podTemplateOf(Map<String, Object> found) {
        Map<String, Object> template = new LinkedHashMap<>();
        if (found.get("metadata") instanceof Map<?, ?> meta) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (meta.get("labels") != null) {
                m.put("labels", meta.get("labels"));
            }
            if (meta.get("annotations") != null) {
                m.put("annotations", meta.get("annotations"));
            }
            if (!m.isEmpty()) {
                template.put("metadata", m);
            }
        }
        template.put("spec", found.get("spec"));
        return template;
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
        Map<String, PodSetStart> byName = PodSetEdits.matchByName(ref, podSets.stream().map(RawPodSet::name).toList(),
                starts, PodSetStart::podSet, "start");
        // check every pod set before writing any, so a conflict leaves the AppWrapper as it was
        for (RawPodSet ps : podSets) {
            PodSetStart st = byName.get(ps.name());
            Map<String, Object> podSpec = RawTree.object(ps.template(), "spec", ref, ps.path() + ".spec");
            PodSetEdits.checkSelector(ps.name(), RawTree.object(podSpec, "nodeSelector", ref,
                    ps.path() + ".spec.nodeSelector"), st.nodeSelector());
            if (st.count() != null && st.count() != ps.count()) {
                throw new IllegalArgumentException(ref + ": pod set " + ps.name() + " cannot start with " + st.count()
                        + " of " + ps.count() + " pods; this kind does not support partial admission");
            }
        }
        List<Object> components = components(job, ref);
        List<List<Object>> infos = new ArrayList<>();
        components.forEach(c -> infos.add(new ArrayList<>()));
        for (RawPodSet ps : podSets) {
            PodSetStart st = byName.get(ps.name());
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("labels", new LinkedHashMap<>(Map.of(WellKnown.POD_SET, ps.name())));
            if (!st.nodeSelector().isEmpty()) {
                info.put("nodeSelector", new LinkedHashMap<>(st.nodeSelector()));
            }
            if (!st.tolerations().isEmpty()) {
                info.put("tolerations", new ArrayList<>(st.tolerations().stream().map(t -> (Object) Models.raw(t))
                        .toList()));
            }
            if (!st.annotations().isEmpty()) {
                info.put("annotations", new LinkedHashMap<>(st.annotations()));
            }
            if (!st.schedulingGates().isEmpty()) {
                info.put("schedulingGates", new ArrayList<>(st.schedulingGates().stream()
                        .map(g -> (Object) new LinkedHashMap<>(Map.of("name", g))).toList()));
            }
            infos.get(ps.component()).add(info);
        }
        for (int c = 0; c < components.size(); c++) {
            Map<String, Object> component = RawTree.element(components, c, ref, "spec.components[" + c + "]");
            if (infos.get(c).isEmpty()) {
                component.remove("podSetInfos");
            } else {
                component.put("podSetInfos", infos.get(c));
            }
        }
        specOrCreate(job).put("suspend", false);
    }

    /** Clears every component's {@code podSetInfos} (the wrapped objects were never changed) and holds it again. */
    @Override
    public void restore(GenericKubernetesResource job, List<PodSetTemplate> originals) {
        String ref = Models.ref(job);
        PodSetEdits.matchByName(ref, rawPodSets(job).stream().map(RawPodSet::name).toList(), originals,
                PodSetTemplate::name, "restore");
        List<Object> components = components(job, ref);
        for (int c = 0; c < components.size(); c++) {
            RawTree.element(components, c, ref, "spec.components[" + c + "]").remove("podSetInfos");
        }
        hold(job);
    }

    /** Succeeded; or Failed once the AppWrapper controller deleted its resources (Kueue's rule). */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        String phase = RawTree.string(status(job), "phase", ref, "status.phase");
        if ("Succeeded".equals(phase)) {
            return Optional.of(new JobFinish(true, "Succeeded", "AppWrapper finished successfully"));
        }
        if ("Failed".equals(phase) && !condition(job, "ResourcesDeployed")) {
            return Optional.of(new JobFinish(false, "Failed", "AppWrapper failed"));
        }
        return Optional.empty();
    }

    /** The AppWrapper's own {@code QuotaReserved} condition is True (Kueue's {@code IsActive}). */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        return condition(job, "QuotaReserved");
    }

    /** The AppWrapper's {@code PodsReady} condition is True: its controller counts every expected pod ready. */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        return condition(job, "PodsReady");
    }

    private static boolean condition(GenericKubernetesResource job, String type) {
        return Conditions.isTrue(job, type);
    }

    private static List<Object> components(GenericKubernetesResource job, String ref) {
        List<Object> components = RawTree.list(spec(job), "components", ref, "spec.components");
        if (components == null || components.isEmpty()) {
            throw new InvalidJobException(ref, "spec.components", "is missing or empty",
                    "wrap at least one component (e.g. a batch/v1 Job) in the AppWrapper");
        }
        return components;
    }

    private static Map<String, Object> spec(GenericKubernetesResource job) {
        return RawTree.object(job.getAdditionalProperties(), "spec", Models.ref(job), "spec");
    }

    private static Map<String, Object> specOrCreate(GenericKubernetesResource job) {
        return RawTree.objectOrCreate(job.getAdditionalProperties(), "spec", Models.ref(job), "spec");
    }

    private static Map<String, Object> status(GenericKubernetesResource job) {
        return RawTree.object(job.getAdditionalProperties(), "status", Models.ref(job), "status");
    }
}
