package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Exclusive placement per topology domain, expressed on the pod templates at submission (used by the
 * mutating webhook). With {@code alpha.jobset.sigs.k8s.io/exclusive-topology: K} every child Job's pods
 * land in one domain of K, and no two child Jobs share a domain. Two required terms, appended to each
 * affected pod template (existing terms, nodeSelector and everything else are kept; applying twice adds
 * nothing):
 * <ul>
 * <li>pod affinity: {@code matchLabelKeys: [JOB]} (the apiserver turns it into {@code JOB In (own value)}
 *     when the pod is created) with labelSelector {@code GROUP Exists}. The selector deliberately does not
 *     name JOB: Kubernetes rejects a pod whose labelSelector holds a matchLabelKeys key twice, and after
 *     the merge {@code JOB Exists} plus {@code JOB In (v)} would be exactly that;</li>
 * <li>pod anti-affinity: labelSelector {@code JOB Exists} with {@code mismatchLabelKeys: [JOB]}
 *     ({@code JOB NotIn (own value)}), i.e. any other child job;</li>
 * <li>both with {@code namespaceSelector: {}} and {@code topologyKey: K}, as JobSet's own pod webhook does,
 *     so exclusivity holds across namespaces.</li>
 * </ul>
 * For a JobSet, JOB is {@code jobset.sigs.k8s.io/job-key} and GROUP {@code jobset.sigs.k8s.io/jobset-name};
 * the annotation applies to all replicated jobs when on the JobSet, or to one replicated job when on its
 * {@code template.metadata.annotations} (which wins, as in JobSet). For a plain Job, JOB is
 * {@code batch.kubernetes.io/controller-uid} and GROUP {@code batch.kubernetes.io/job-name}: the uid,
 * unlike the job name, is unique across namespaces. Like JobSet, nothing is injected when
 * {@code alpha.jobset.sigs.k8s.io/node-selector} is set (nodes are pre-labelled instead). Needs
 * Kubernetes 1.31+ (matchLabelKeys/mismatchLabelKeys in pod affinity).
 */
public final class ExclusiveTopology {
    private ExclusiveTopology() {
    }

    /**
     * Injects the terms into the affected pod templates of a Job or JobSet, in place.
     *
     * @return whether anything was added
     * @throws InvalidJobException an empty topology key, or a malformed template or affinity
     */
    public static boolean inject(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        if ("batch/v1".equals(job.getApiVersion()) && "Job".equals(job.getKind())) {
            return injectJob(job, ref);
        }
        if ("jobset.x-k8s.io/v1alpha2".equals(job.getApiVersion()) && "JobSet".equals(job.getKind())) {
            return injectJobSet(job, ref);
        }
        return false;
    }

    private static boolean injectJob(GenericKubernetesResource job, String ref) {
        Map<String, String> annotations = job.getMetadata() == null ? null : job.getMetadata().getAnnotations();
        String key = topologyKey(annotations, ref, "metadata.annotations");
        if (key == null || annotations.containsKey(WellKnown.JOBSET_NODE_SELECTOR_STRATEGY)) {
            return false;
        }
        Map<String, Object> spec = RawTree.object(job.getAdditionalProperties(), "spec", ref, "spec");
        Map<String, Object> template = RawTree.object(spec, "template", ref, "spec.template");
        if (template == null) {
            throw new InvalidJobException(ref, "spec.template", "is missing", "give the Job a pod template");
        }
        return addTerms(template, "spec.template", ref, key, WellKnown.JOB_CONTROLLER_UID, WellKnown.JOB_NAME);
    }

    private static boolean injectJobSet(GenericKubernetesResource job, String ref) {
        Map<String, String> annotations = job.getMetadata() == null ? null : job.getMetadata().getAnnotations();
        String jobSetKey = topologyKey(annotations, ref, "metadata.annotations");
        boolean jobSetNodeSelector = annotations != null
                && annotations.containsKey(WellKnown.JOBSET_NODE_SELECTOR_STRATEGY);
        Map<String, Object> spec = RawTree.object(job.getAdditionalProperties(), "spec", ref, "spec");
        List<Object> replicated = RawTree.list(spec, "replicatedJobs", ref, "spec.replicatedJobs");
        if (replicated == null) {
            return false;
        }
        boolean changed = false;
        for (int i = 0; i < replicated.size(); i++) {
            String path = "spec.replicatedJobs[" + i + "].template";
            Map<String, Object> jobTemplate = RawTree.object(
                    RawTree.element(replicated, i, ref, "spec.replicatedJobs[" + i + "]"), "template", ref, path);
            Map<String, Object> rjAnnotations = RawTree.object(
                    RawTree.object(jobTemplate, "metadata", ref, path + ".metadata"), "annotations", ref,
                    path + ".metadata.annotations");
            String key = topologyKey(rjAnnotations, ref, path + ".metadata.annotations");
            boolean nodeSelector = jobSetNodeSelector
                    || rjAnnotations != null && rjAnnotations.containsKey(WellKnown.JOBSET_NODE_SELECTOR_STRATEGY);
            if (key == null) {
                key = jobSetKey;
            }
            if (key == null || nodeSelector) {
                continue;
            }
            Map<String, Object> template = RawTree.object(RawTree.object(jobTemplate, "spec", ref, path + ".spec"),
                    "template", ref, path + ".spec.template");
            if (template == null) {
                throw new InvalidJobException(ref, path + ".spec.template", "is missing",
                        "give the replicated job's Job a pod template");
            }
            changed |= addTerms(template, path + ".spec.template", ref, key, WellKnown.JOBSET_JOB_KEY,
                    WellKnown.JOBSET_NAME);
        }
        return changed;
    }

    private static String topologyKey(Map<String, ?> annotations, String ref, String path) {
        if (annotations == null || !annotations.containsKey(WellKnown.EXCLUSIVE_TOPOLOGY)) {
            return null;
        }
        Object v = annotations.get(WellKnown.EXCLUSIVE_TOPOLOGY);
        if (!(v instanceof String s) || s.isBlank()) {
            throw new InvalidJobException(ref, path + "[" + WellKnown.EXCLUSIVE_TOPOLOGY + "]",
                    "must name a node label (the topology key), found " + RawTree.describe(v),
                    "set it to a node label such as cloud.google.com/gke-nodepool");
        }
        return s;
    }

    private static boolean addTerms(Map<String, Object> template, String path, String ref, String topologyKey,
            String jobLabel, String groupLabel) {
        Map<String, Object> podSpec = RawTree.objectOrCreate(template, "spec", ref, path + ".spec");
        Map<String, Object> affinity = RawTree.objectOrCreate(podSpec, "affinity", ref, path + ".spec.affinity");
        boolean a = addTerm(affinity, "podAffinity", path, ref,
                term(groupLabel, "matchLabelKeys", jobLabel, topologyKey));
        boolean b = addTerm(affinity, "podAntiAffinity", path, ref,
                term(jobLabel, "mismatchLabelKeys", jobLabel, topologyKey));
        return a || b;
    }

    private static boolean addTerm(Map<String, Object> affinity, String kind, String path, String ref,
            Map<String, Object> term) {
        String p = path + ".spec.affinity." + kind;
        List<Object> required = RawTree.listOrCreate(RawTree.objectOrCreate(affinity, kind, ref, p),
                "requiredDuringSchedulingIgnoredDuringExecution", ref,
                p + ".requiredDuringSchedulingIgnoredDuringExecution");
        if (required.contains(term)) {
            return false;
        }
        required.add(term);
        return true;
    }

    /** A required term: {@code selectorKey Exists}, the job label in {@code keysField}, any namespace. */
    private static Map<String, Object> term(String selectorKey, String keysField, String jobLabel, String topologyKey) {
        Map<String, Object> expression = new LinkedHashMap<>();
        expression.put("key", selectorKey);
        expression.put("operator", "Exists");
        List<Object> expressions = new ArrayList<>();
        expressions.add(expression);
        Map<String, Object> selector = new LinkedHashMap<>();
        selector.put("matchExpressions", expressions);
        Map<String, Object> term = new LinkedHashMap<>();
        term.put("labelSelector", selector);
        List<Object> keys = new ArrayList<>();
        keys.add(jobLabel);
        term.put(keysField, keys);
        term.put("namespaceSelector", new LinkedHashMap<>());
        term.put("topologyKey", topologyKey);
        return term;
    }
}
