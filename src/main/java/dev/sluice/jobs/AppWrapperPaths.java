package dev.sluice.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where an AppWrapper component keeps its pods, as the AppWrapper project reads it (v1.2.1 {@code pkg/utils}): paths
 * such as {@code template.spec.template} or {@code template.spec.replicatedJobs[0].template.spec.template}, whose
 * first element {@code template} is the component's wrapped object, and the pod sets inferred for the kinds it knows
 * when a component declares none.
 */
final class AppWrapperPaths {

    /** One pod set of a component: the path of its pod template and its pod count. */
    record ComponentPodSet(String path, int replicas) {
    }

    private AppWrapperPaths() {
    }

    /** The value at {@code path} in {@code component} (whose key {@code template} is the wrapped object), or null. */
    @SuppressWarnings("unchecked")
    static Object at(Map<String, Object> component, String path) {
        if (path == null || !path.startsWith("template")) {
            return null;
        }
        Object cursor = component.get("template");
        String rest = path.substring("template".length());
        while (!rest.isEmpty()) {
            if (rest.startsWith("[")) {
                int end = rest.indexOf(']');
                if (end < 0 || !(cursor instanceof List<?> list)) {
                    return null;
                }
                int index;
                try {
                    index = Integer.parseInt(rest.substring(1, end));
                } catch (NumberFormatException e) {
                    return null;
                }
                if (index < 0 || index >= list.size()) {
                    return null;
                }
                cursor = list.get(index);
                rest = rest.substring(end + 1);
            } else if (rest.startsWith(".")) {
                rest = rest.substring(1);
                int end = rest.length();
                int dot = rest.indexOf('.');
                int bracket = rest.indexOf('[');
                if (dot > 0) {
                    end = dot;
                }
                if (bracket > 0 && bracket < end) {
                    end = bracket;
                }
                if (!(cursor instanceof Map<?, ?> map) || !map.containsKey(rest.substring(0, end))) {
                    return null;
                }
                cursor = ((Map<String, Object>) map).get(rest.substring(0, end));
                rest = rest.substring(end);
            } else {
                return null;
            }
        }
        return cursor;
    }

    /** A whole number at {@code path}, or {@code fallback} when there is none there. */
    static int countAt(Map<String, Object> component, String path, int fallback) {
        return at(component, path) instanceof Number n ? n.intValue() : fallback;
    }

    /** The pod sets the AppWrapper project infers for the component's wrapped kind; empty for a kind it does not know. */
    static List<ComponentPodSet> infer(Map<String, Object> component) {
        Object wrapped = component.get("template");
        if (!(wrapped instanceof Map<?, ?> object)) {
            return List.of();
        }
        String apiVersion = String.valueOf(object.get("apiVersion"));
        String kind = String.valueOf(object.get("kind"));
        List<ComponentPodSet> out = new ArrayList<>();
        switch (apiVersion + " " + kind) {
            case "batch/v1 Job" -> out.add(new ComponentPodSet("template.spec.template", jobPods(component,
                    "template.spec")));
            case "jobset.x-k8s.io/v1alpha2 JobSet" -> {
                if (at(component, "template.spec.replicatedJobs") instanceof List<?> jobs) {
                    for (int i = 0; i < jobs.size(); i++) {
                        String prefix = "template.spec.replicatedJobs[" + i + "].";
                        if (at(component, prefix + "template") != null) {
                            out.add(new ComponentPodSet(prefix + "template.spec.template",
                                    countAt(component, prefix + "replicas", 1)
                                            * jobPods(component, prefix + "template.spec")));
                        }
                    }
                }
            }
            case "kubeflow.org/v1 PyTorchJob" -> {
                for (String type : List.of("Master", "Worker")) {
                    String prefix = "template.spec.pytorchReplicaSpecs." + type + ".";
                    if (at(component, prefix + "template") != null) {
                        out.add(new ComponentPodSet(prefix + "template", countAt(component, prefix + "replicas", 1)));
                    }
                }
            }
            case "ray.io/v1 RayCluster" -> ray(component, "template.spec.", out);
            case "ray.io/v1 RayJob" -> ray(component, "template.spec.rayClusterSpec.", out);
            case "v1 Pod" -> out.add(new ComponentPodSet("template", 1));
            case "apps/v1 Deployment", "apps/v1 StatefulSet" -> {
                if (at(component, "template.spec.template") != null) {
                    out.add(new ComponentPodSet("template.spec.template",
                            countAt(component, "template.spec.replicas", 1)));
                }
            }
            default -> {
                // not a kind the AppWrapper project infers: the component must declare its pod sets
            }
        }
        return out;
    }

    /** A Job's pods: parallelism (default 1), lowered to completions when smaller. */
    private static int jobPods(Map<String, Object> component, String jobSpec) {
        int pods = countAt(component, jobSpec + ".parallelism", 1);
        int completions = countAt(component, jobSpec + ".completions", Integer.MAX_VALUE);
        return Math.min(pods, completions);
    }

    private static void ray(Map<String, Object> component, String clusterSpec, List<ComponentPodSet> out) {
        out.add(new ComponentPodSet(clusterSpec + "headGroupSpec.template", 1));
        if (at(component, clusterSpec + "workerGroupSpecs") instanceof List<?> workers) {
            for (int i = 0; i < workers.size(); i++) {
                String prefix = clusterSpec + "workerGroupSpecs[" + i + "].";
                if (at(component, prefix + "template") != null) {
                    out.add(new ComponentPodSet(prefix + "template", countAt(component, prefix + "replicas", 1)));
                }
            }
        }
    }
}
