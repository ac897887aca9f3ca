package dev.sluice.webhook;

import static dev.sluice.api.v1beta2.TopologyAnnotations.GROUP_NAME;
import static dev.sluice.api.v1beta2.TopologyAnnotations.PREFERRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.REQUIRED;

import dev.sluice.api.v1beta2.PodSetTopologyRequest;
import dev.sluice.bridge.TopologyRequests;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.PodSetTemplate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A queued job's topology annotations, as Kueue v0.19.2's job webhooks check them on create and update: each pod
 * set's annotations (TopologyAnnotationRules), then Kueue's ValidatePodSetGroupingTopology across its pod sets.
 */
final class JobTopologyValidation {

    private JobTopologyValidation() {
    }

    /** The errors, as Kueue's webhook aggregates them; empty when the annotations are fine or the pod sets unreadable. */
    static FieldErrors errors(JobKind kind, GenericKubernetesResource job) {
        FieldErrors errors = new FieldErrors();
        List<PodSetTemplate> podSets;
        try {
            podSets = kind.podSets(job);
        } catch (InvalidJobException | IllegalArgumentException unreadable) {
            return errors; // the controller reports it on the job
        }
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < podSets.size(); i++) {
            PodSetTemplate ps = podSets.get(i);
            String template = kind.podTemplatePath(job, i);
            String metadata = (template == null ? "podSets[" + ps.name() + "].template" : template) + ".metadata";
            paths.add(metadata + ".annotations");
            TopologyAnnotationRules.validate(metadata, annotations(ps), ps.count(), errors);
        }
        if (errors.isEmpty()) {
            grouping(kind, job, podSets, paths, errors);
        }
        return errors;
    }

    /** Kueue's ValidatePodSetGroupingTopology: a group is two pod sets, one of one pod, asking the same topology. */
    private static void grouping(JobKind kind, GenericKubernetesResource job, List<PodSetTemplate> podSets,
            List<String> paths, FieldErrors errors) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        List<PodSetTopologyRequest> requests = new ArrayList<>();
        for (int i = 0; i < podSets.size(); i++) {
            PodSetTopologyRequest r;
            try {
                r = TopologyRequests.build(annotations(podSets.get(i)), kind.podIndexLabels(job, podSets.get(i)));
            } catch (TopologyRequests.BadAnnotationException e) {
                r = null;
            }
            requests.add(r);
            if (r != null && r.getPodSetGroupName() != null) {
                groups.computeIfAbsent(r.getPodSetGroupName(), g -> new ArrayList<>()).add(i);
            }
        }
        for (var group : groups.entrySet()) {
            String name = group.getKey();
            List<Integer> members = group.getValue();
            if (members.size() != 2) {
                for (int i : members) {
                    errors.invalid(paths.get(i) + "[" + GROUP_NAME + "]", name,
                            "can only define groups of exactly 2 pod sets, got: " + members.size() + " pod set(s)");
                }
                continue;
            }
            int a = members.get(0);
            int b = members.get(1);
            if (podSets.get(a).count() != 1 && podSets.get(b).count() != 1) {
                String message = "can only define groups where at least one pod set has only 1 replica, got: "
                        + podSets.get(a).count() + " replica(s) and " + podSets.get(b).count() + " replica(s) in the group";
                errors.invalid(paths.get(a) + "[" + GROUP_NAME + "]", name, message);
                errors.invalid(paths.get(b) + "[" + GROUP_NAME + "]", name, message);
            }
            if (!consistent(requests.get(a), requests.get(b))) {
                String template = "must specify '" + REQUIRED + "' or '" + PREFERRED + "' topology consistent with '%s'"
                        + " in group '" + name + "'";
                errors.invalidOmitValue(paths.get(a), String.format(template, paths.get(b)));
                errors.invalidOmitValue(paths.get(b), String.format(template, paths.get(a)));
            }
        }
    }

    private static boolean consistent(PodSetTopologyRequest r1, PodSetTopologyRequest r2) {
        if (r1.getRequired() == null && r1.getPreferred() == null || r2.getRequired() == null && r2.getPreferred() == null) {
            return false;
        }
        return Objects.equals(r1.getRequired(), r2.getRequired()) && Objects.equals(r1.getPreferred(), r2.getPreferred());
    }

    private static Map<String, String> annotations(PodSetTemplate ps) {
        return ps.template().getMetadata() == null ? null : ps.template().getMetadata().getAnnotations();
    }

    /** Kueue's webhook answer: one error as it is, several as [a, b]. */
    static String aggregate(FieldErrors errors) {
        List<String> all = errors.all();
        return all.size() == 1 ? all.get(0) : "[" + String.join(", ", all) + "]";
    }
}
