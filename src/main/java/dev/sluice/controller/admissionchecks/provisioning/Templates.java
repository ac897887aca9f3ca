package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The PodTemplate a ProvisioningRequest points at for one pod set, as Kueue's {@code createPodTemplate}: the pod set's
 * template with its assigned flavors' node labels (as node selector) and tolerations, limits as missing requests,
 * labelled kueue.x-k8s.io/managed and controlled by the Workload until the request takes it over.
 */
final class Templates {

    private Templates() {
    }

    /** The flavors' node labels disagree with the template's node selector (Kueue's BadPodSetsUpdateError). */
    static final class CannotMerge extends RuntimeException {
        CannotMerge(String message) {
            super(message);
        }
    }

    static PodTemplate podTemplate(Workload wl, String name, PodSets.Merged m, ProvisioningCache cache) {
        PodTemplateSpec template = m.podSet().getTemplate() == null ? new PodTemplateSpec()
                : Serialization.clone(m.podSet().getTemplate());
        if (template.getSpec() == null) {
            template.setSpec(new PodSpec());
        }
        Map<String, String> nodeLabels = new LinkedHashMap<>();
        List<Toleration> tolerations = new ArrayList<>();
        if (m.assignment().getFlavors() != null) {
            for (String flavorName : new LinkedHashSet<>(m.assignment().getFlavors().values())) {
                ResourceFlavor flavor = cache.flavor(flavorName);
                if (flavor == null) {
                    throw new CannotMerge("resourceflavors.kueue.x-k8s.io \"" + flavorName + "\" not found");
                }
                if (flavor.getSpec() != null && flavor.getSpec().getNodeLabels() != null) {
                    nodeLabels.putAll(flavor.getSpec().getNodeLabels());
                }
                if (flavor.getSpec() != null && flavor.getSpec().getTolerations() != null) {
                    tolerations.addAll(flavor.getSpec().getTolerations());
                }
            }
        }
        merge(template.getSpec(), nodeLabels, tolerations);
        PodSets.limitsAsMissingRequests(template.getSpec());
        PodTemplate pt = new PodTemplate();
        pt.setMetadata(new ObjectMetaBuilder().withNamespace(wl.getMetadata().getNamespace()).withName(name)
                .withLabels(Map.of(WorkloadReconciler.MANAGED_LABEL, "true"))
                .withOwnerReferences(WorkloadReconciler.controllerOf(wl)).build());
        pt.setTemplate(template);
        return pt;
    }

    /** Node labels into the node selector (a different value for a key is a conflict), tolerations not already there. */
    static void merge(PodSpec spec, Map<String, String> nodeLabels, List<Toleration> tolerations) {
        Map<String, String> selector = spec.getNodeSelector() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(spec.getNodeSelector());
        for (var e : nodeLabels.entrySet()) {
            String old = selector.get(e.getKey());
            if (old != null && !old.equals(e.getValue())) {
                throw new CannotMerge("invalid admission check PodSetUpdate: conflict for nodeSelector: conflict for key="
                        + e.getKey() + ", value1=" + old + ", value2=" + e.getValue());
            }
            selector.put(e.getKey(), e.getValue());
        }
        if (!selector.isEmpty()) {
            spec.setNodeSelector(selector);
        }
        List<Toleration> all = spec.getTolerations() == null ? new ArrayList<>() : new ArrayList<>(spec.getTolerations());
        for (Toleration t : tolerations) {
            if (all.stream().noneMatch(x -> same(x, t))) {
                all.add(t);
            }
        }
        if (!all.isEmpty()) {
            spec.setTolerations(all);
        }
    }

    private static boolean same(Toleration a, Toleration b) {
        return Objects.equals(a.getKey(), b.getKey()) && Objects.equals(op(a), op(b))
                && Objects.equals(a.getValue(), b.getValue()) && Objects.equals(a.getEffect(), b.getEffect())
                && Objects.equals(a.getTolerationSeconds(), b.getTolerationSeconds());
    }

    private static String op(Toleration t) {
        return t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
    }
}
