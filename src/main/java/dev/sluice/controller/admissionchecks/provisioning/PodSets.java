package dev.sluice.controller.admissionchecks.provisioning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.PodSetMergePolicy;
import dev.sluice.api.v1beta2.ProvisioningRequestConfigSpec;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which pod sets of a Workload a ProvisioningRequest asks capacity for, and how many pods: those with pods that use a
 * managed resource (all, when the config names none), counted as admitted, merged per the config's podSetMergePolicy
 * (Kueue's {@code reqIsNeeded}, {@code requiredPodSets}, {@code mergePodSets}).
 */
final class PodSets {

    private PodSets() {
    }

    /** The Workload's pod sets and the assignments of its admission disagree (Kueue's errInconsistentPodSetAssignments). */
    static final class InconsistentAssignments extends IllegalStateException {
        InconsistentAssignments(String message) {
            super(message);
        }
    }

    /** A pod set of the request: the Workload's pod set it is made from, its assignment, and the pods it stands for. */
    record Merged(String name, PodSet podSet, PodSetAssignment assignment, int count) {
    }

    static int count(PodSet ps) {
        return ps.getCount() == null ? 1 : ps.getCount();
    }

    static String name(PodSet ps) {
        return ps.getName() == null ? "main" : ps.getName();
    }

    private static Map<String, PodSetAssignment> assignments(Workload wl) {
        Map<String, PodSetAssignment> out = new LinkedHashMap<>();
        var admission = wl.getStatus() == null ? null : wl.getStatus().getAdmission();
        if (admission != null && admission.getPodSetAssignments() != null) {
            for (PodSetAssignment psa : admission.getPodSetAssignments()) {
                out.put(psa.getName(), psa);
            }
        }
        return out;
    }

    private static List<PodSet> podSets(Workload wl) {
        return wl.getSpec() == null || wl.getSpec().getPodSets() == null ? List.of() : wl.getSpec().getPodSets();
    }

    private static List<String> managed(ProvisioningRequestConfigSpec spec) {
        return spec == null || spec.getManagedResources() == null ? List.of() : spec.getManagedResources();
    }

    /** Whether some pod set with pods that use a managed resource is admitted with pods: then a request is needed. */
    static boolean requestNeeded(Workload wl, ProvisioningRequestConfigSpec spec) {
        Map<String, PodSetAssignment> assignments = assignments(wl);
        Set<String> managed = new HashSet<>(managed(spec));
        for (PodSet ps : podSets(wl)) {
            if (count(ps) <= 0 || (!managed.isEmpty() && !podUses(podSpec(ps), managed))) {
                continue;
            }
            PodSetAssignment psa = assignments.get(name(ps));
            if (psa == null) {
                throw new InconsistentAssignments("inconsistent podSet assignments: missing assignment for PodSet \""
                        + name(ps) + "\"");
            }
            if ((psa.getCount() == null ? count(ps) : psa.getCount()) > 0) {
                return true;
            }
        }
        return false;
    }

    static List<String> required(List<PodSet> podSets, List<String> resources) {
        Set<String> set = new HashSet<>(resources);
        List<String> users = new ArrayList<>();
        for (PodSet ps : podSets) {
            if (count(ps) > 0 && (resources.isEmpty() || podUses(podSpec(ps), set))) {
                users.add(name(ps));
            }
        }
        return users;
    }

    static List<Merged> merge(Workload wl, ProvisioningRequestConfigSpec spec) {
        Map<String, PodSetAssignment> assignments = assignments(wl);
        Map<String, PodSet> byName = new LinkedHashMap<>();
        for (PodSet ps : podSets(wl)) {
            byName.put(name(ps), ps);
        }
        PodSetMergePolicy policy = spec == null ? null : spec.getPodSetMergePolicy();
        List<Merged> merged = new ArrayList<>();
        for (String name : required(podSets(wl), managed(spec))) {
            PodSet ps = byName.get(name);
            PodSetAssignment psa = assignments.get(name);
            if (ps == null || psa == null) {
                throw new InconsistentAssignments("inconsistent podSet assignments");
            }
            int count = psa.getCount() == null ? count(ps) : psa.getCount();
            if (count <= 0) {
                continue;
            }
            boolean into = false;
            if (policy != null) {
                for (int i = 0; i < merged.size(); i++) {
                    Merged m = merged.get(i);
                    if (canMerge(m.podSet(), ps, policy)) {
                        merged.set(i, new Merged(m.name(), m.podSet(), m.assignment(), m.count() + count));
                        into = true;
                        break;
                    }
                }
            }
            if (!into) {
                merged.add(new Merged(name, ps, psa, count));
            }
        }
        return merged;
    }

    static boolean canMerge(PodSet a, PodSet b, PodSetMergePolicy policy) {
        return switch (policy) {
            case IdenticalPodTemplates -> same(a.getTemplate(), b.getTemplate());
            case IdenticalWorkloadSchedulingRequirements -> similar(a, b);
        };
    }

    /** The fields that decide where pods can run (Kueue's {@code arePodSetsSimilar}). */
    static boolean similar(PodSet a, PodSet b) {
        PodSpec x = podSpec(a);
        PodSpec y = podSpec(b);
        return sameRequests(x.getContainers(), y.getContainers())
                && sameRequests(x.getInitContainers(), y.getInitContainers())
                && same(x.getResources(), y.getResources()) && same(x.getNodeSelector(), y.getNodeSelector())
                && same(x.getTolerations(), y.getTolerations()) && same(x.getAffinity(), y.getAffinity())
                && same(x.getResourceClaims(), y.getResourceClaims());
    }

    private static boolean sameRequests(List<Container> a, List<Container> b) {
        List<Container> x = a == null ? List.of() : a;
        List<Container> y = b == null ? List.of() : b;
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!same(requests(x.get(i)), requests(y.get(i)))) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Quantity> requests(Container c) {
        return c.getResources() == null || c.getResources().getRequests() == null ? Map.of()
                : c.getResources().getRequests();
    }

    /** Equal as the API server stores them: empty and absent alike, map order ignored. */
    static boolean same(Object a, Object b) {
        return Objects.equals(tree(a), tree(b));
    }

    private static JsonNode tree(Object o) {
        JsonNode n = o == null ? null : Serialization.jsonMapper().valueToTree(o);
        return n == null || n.isNull() || (n.isContainerNode() && n.isEmpty()) ? null : n;
    }

    static PodSpec podSpec(PodSet ps) {
        return ps.getTemplate() == null || ps.getTemplate().getSpec() == null ? new PodSpec() : ps.getTemplate().getSpec();
    }

    static boolean podUses(PodSpec pod, Set<String> resources) {
        for (List<Container> list : java.util.Arrays.asList(pod.getInitContainers(), pod.getContainers())) {
            if (list != null) {
                for (Container c : list) {
                    if (uses(c.getResources(), resources)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean uses(ResourceRequirements r, Set<String> resources) {
        if (r == null) {
            return false;
        }
        for (Map<String, Quantity> m : java.util.Arrays.asList(r.getRequests(), r.getLimits())) {
            if (m != null && m.keySet().stream().anyMatch(resources::contains)) {
                return true;
            }
        }
        return false;
    }

    /** A limit without a request counts as the request, as Kubernetes defaults it (Kueue's UseLimitsAsMissingRequestsInPod). */
    static void limitsAsMissingRequests(PodSpec pod) {
        for (List<Container> list : java.util.Arrays.asList(pod.getInitContainers(), pod.getContainers())) {
            if (list != null) {
                for (Container c : list) {
                    keepFirst(c.getResources());
                }
            }
        }
        if (pod.getResources() != null) {
            keepFirst(pod.getResources());
        }
    }

    private static void keepFirst(ResourceRequirements r) {
        if (r == null || r.getLimits() == null || r.getLimits().isEmpty()) {
            return;
        }
        Map<String, Quantity> requests = r.getRequests() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(r.getRequests());
        r.getLimits().forEach(requests::putIfAbsent);
        r.setRequests(requests);
    }
}
