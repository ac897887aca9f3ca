package dev.sluice.bridge;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.ClusterQueuePreemption;
import dev.sluice.api.v1beta2.KueueDefaults;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.ResourceGroup;
import dev.sluice.engine.BorrowWithinCohortPolicy;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorFungibility;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LabelSelector;
import dev.sluice.engine.LabelSelectorRequirement;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.PreemptionSpec;
import dev.sluice.engine.QueueingStrategy;
import dev.sluice.engine.ReclaimWithinCohort;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.ResourceQuota;
import dev.sluice.engine.StopPolicy;
import dev.sluice.engine.Taint;
import dev.sluice.engine.Toleration;
import dev.sluice.engine.WhenCanBorrow;
import dev.sluice.engine.WhenCanPreempt;
import dev.sluice.engine.WithinClusterQueue;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Kueue queue objects as the engine sees them: defaults applied, quantities in exact milli-units. */
public final class QueueObjects {

    private QueueObjects() {
    }

    public static FlavorSpec flavor(ResourceFlavor flavor) {
        var spec = flavor.getSpec();
        String name = flavor.getMetadata().getName();
        if (spec == null) {
            return new FlavorSpec(name, Map.of(), List.of(), List.of());
        }
        List<Taint> taints = new ArrayList<>();
        if (spec.getNodeTaints() != null) {
            spec.getNodeTaints().forEach(t -> taints.add(new Taint(t.getKey(), t.getValue(), t.getEffect())));
        }
        return new FlavorSpec(name, spec.getNodeLabels() == null ? Map.of() : spec.getNodeLabels(), taints,
                tolerations(spec.getTolerations()), spec.getTopologyName());
    }

    public static List<Toleration> tolerations(List<io.fabric8.kubernetes.api.model.Toleration> tolerations) {
        List<Toleration> out = new ArrayList<>();
        if (tolerations != null) {
            tolerations.forEach(t -> out.add(new Toleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect())));
        }
        return out;
    }

    public static ClusterQueueSpec clusterQueue(ClusterQueue cq) {
        String name = cq.getMetadata().getName();
        String where = "ClusterQueue " + name;
        var spec = KueueDefaults.apply(Serialization.clone(cq.getSpec() == null ? new dev.sluice.api.v1beta2.ClusterQueueSpec()
                : cq.getSpec()));
        List<ResourceGroupSpec> groups = resourceGroups(spec.getResourceGroups(), where);
        return new ClusterQueueSpec(name, spec.getCohortName(), groups,
                QueueingStrategy.valueOf(spec.getQueueingStrategy().name()), selector(spec.getNamespaceSelector()),
                preemption(spec.getPreemption()),
                new FlavorFungibility(whenCanBorrow(spec.getFlavorFungibility().getWhenCanBorrow()),
                        whenCanPreempt(spec.getFlavorFungibility().getWhenCanPreempt()),
                        preference(spec.getFlavorFungibility().getPreference())),
                StopPolicy.valueOf(spec.getStopPolicy().name()),
                CohortObjects.weight(spec.getFairSharing() == null ? null : spec.getFairSharing().getWeight(), where))
                .withAdmissionMode(admissionMode(spec.getAdmissionScope()));
    }

    /** spec.admissionScope.admissionMode; unset is NoAdmissionFairSharing, as in Kueue. */
    static dev.sluice.engine.AdmissionMode admissionMode(dev.sluice.api.v1beta2.AdmissionScope scope) {
        return scope == null || scope.getAdmissionMode() == null ? dev.sluice.engine.AdmissionMode.NoAdmissionFairSharing
                : dev.sluice.engine.AdmissionMode.valueOf(scope.getAdmissionMode().name());
    }

    /**
     * A ClusterQueue's or Cohort's spec.resourceGroups as the engine's quota groups; a quantity that does not parse
     * names its field.
     */
    static List<ResourceGroupSpec> resourceGroups(List<ResourceGroup> apiGroups, String where) {
        List<ResourceGroupSpec> groups = new ArrayList<>();
        if (apiGroups == null) {
            return groups;
        }
        for (int g = 0; g < apiGroups.size(); g++) {
            ResourceGroup group = apiGroups.get(g);
            List<FlavorQuotas> flavors = new ArrayList<>();
            var apiFlavors = group.getFlavors() == null ? List.<dev.sluice.api.v1beta2.FlavorQuotas> of() : group.getFlavors();
            for (int f = 0; f < apiFlavors.size(); f++) {
                var fq = apiFlavors.get(f);
                List<ResourceQuota> quotas = new ArrayList<>();
                var resources = fq.getResources() == null ? List.<dev.sluice.api.v1beta2.ResourceQuota> of() : fq.getResources();
                for (int r = 0; r < resources.size(); r++) {
                    var rq = resources.get(r);
                    String path = "spec.resourceGroups[" + g + "].flavors[" + f + "].resources[" + r + "]";
                    quotas.add(new ResourceQuota(rq.getName(),
                            Quantities.milli(rq.getNominalQuota(), where, path + ".nominalQuota"),
                            Quantities.milliOrNull(rq.getBorrowingLimit(), where, path + ".borrowingLimit"),
                            Quantities.milliOrNull(rq.getLendingLimit(), where, path + ".lendingLimit")));
                }
                flavors.add(new FlavorQuotas(fq.getName(), quotas));
            }
            groups.add(new ResourceGroupSpec(group.getCoveredResources() == null ? List.of() : group.getCoveredResources(),
                    flavors));
        }
        return groups;
    }

    /** MayStopSearch is Kueue's newer name for Borrow (whenCanBorrow) and Preempt (whenCanPreempt). */
    private static WhenCanBorrow whenCanBorrow(dev.sluice.api.v1beta2.WhenCanBorrow value) {
        return value == dev.sluice.api.v1beta2.WhenCanBorrow.TryNextFlavor ? WhenCanBorrow.TryNextFlavor : WhenCanBorrow.Borrow;
    }

    private static WhenCanPreempt whenCanPreempt(dev.sluice.api.v1beta2.WhenCanPreempt value) {
        return value == dev.sluice.api.v1beta2.WhenCanPreempt.TryNextFlavor ? WhenCanPreempt.TryNextFlavor : WhenCanPreempt.Preempt;
    }

    /** Unset is Kueue's default behaviour, BorrowingOverPreemption. */
    private static dev.sluice.engine.FlavorFungibilityPreference preference(
            dev.sluice.api.v1beta2.FlavorFungibilityPreference value) {
        return value == null ? null : dev.sluice.engine.FlavorFungibilityPreference.valueOf(value.name());
    }

    private static PreemptionSpec preemption(ClusterQueuePreemption p) {
        var borrow = p.getBorrowWithinCohort();
        return new PreemptionSpec(ReclaimWithinCohort.valueOf(p.getReclaimWithinCohort().name()),
                borrow == null ? BorrowWithinCohortPolicy.Never : BorrowWithinCohortPolicy.valueOf(borrow.getPolicy().name()),
                borrow == null ? null : borrow.getMaxPriorityThreshold(),
                WithinClusterQueue.valueOf(p.getWithinClusterQueue().name()));
    }

    /** null selects nothing (Kueue's rule for ClusterQueue namespaceSelector), {} everything. */
    public static LabelSelector selector(io.fabric8.kubernetes.api.model.LabelSelector selector) {
        if (selector == null) {
            return null;
        }
        List<LabelSelectorRequirement> requirements = new ArrayList<>();
        if (selector.getMatchExpressions() != null) {
            selector.getMatchExpressions().forEach(e -> requirements.add(
                    new LabelSelectorRequirement(e.getKey(), e.getOperator(), e.getValues() == null ? List.of() : e.getValues())));
        }
        return new LabelSelector(selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels(), requirements);
    }

    public static LocalQueueSpec localQueue(LocalQueue lq) {
        var spec = lq.getSpec() == null ? new dev.sluice.api.v1beta2.LocalQueueSpec() : lq.getSpec();
        var stop = spec.getStopPolicy() == null ? StopPolicy.None : StopPolicy.valueOf(spec.getStopPolicy().name());
        String where = "LocalQueue " + lq.getMetadata().getNamespace() + "/" + lq.getMetadata().getName();
        return new LocalQueueSpec(lq.getMetadata().getNamespace(), lq.getMetadata().getName(), spec.getClusterQueue(), stop)
                .withFairSharingWeight(CohortObjects.weight(spec.getFairSharing(), where));
    }
}
