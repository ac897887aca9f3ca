package dev.sluice.api.v1beta1;

/**
 * Kueue's defaults, applied the way Kueue's CRD schema and defaulting webhook apply them. The model classes keep
 * exactly what was written (so objects round-trip unchanged); callers that interpret an object default it first.
 */
public final class KueueDefaults {

    public static final String DEFAULT_POD_SET_NAME = "main";

    private KueueDefaults() {
    }

    public static ClusterQueueSpec apply(ClusterQueueSpec spec) {
        if (spec.getQueueingStrategy() == null) {
            spec.setQueueingStrategy(QueueingStrategy.BestEffortFIFO);
        }
        if (spec.getStopPolicy() == null) {
            spec.setStopPolicy(StopPolicy.None);
        }
        if (spec.getFlavorFungibility() == null) {
            spec.setFlavorFungibility(new FlavorFungibility());
        }
        FlavorFungibility fungibility = spec.getFlavorFungibility();
        if (fungibility.getWhenCanBorrow() == null) {
            fungibility.setWhenCanBorrow(WhenCanBorrow.MayStopSearch);
        }
        if (fungibility.getWhenCanPreempt() == null) {
            fungibility.setWhenCanPreempt(WhenCanPreempt.TryNextFlavor);
        }
        if (spec.getPreemption() == null) {
            spec.setPreemption(new ClusterQueuePreemption());
        }
        ClusterQueuePreemption preemption = spec.getPreemption();
        if (preemption.getReclaimWithinCohort() == null) {
            preemption.setReclaimWithinCohort(ReclaimWithinCohort.Never);
        }
        if (preemption.getWithinClusterQueue() == null) {
            preemption.setWithinClusterQueue(WithinClusterQueue.Never);
        }
        if (preemption.getBorrowWithinCohort() != null && preemption.getBorrowWithinCohort().getPolicy() == null) {
            preemption.getBorrowWithinCohort().setPolicy(BorrowWithinCohortPolicy.Never);
        }
        return spec;
    }

    public static LocalQueueSpec apply(LocalQueueSpec spec) {
        if (spec.getStopPolicy() == null) {
            spec.setStopPolicy(StopPolicy.None);
        }
        return spec;
    }

    public static WorkloadSpec apply(WorkloadSpec spec) {
        if (spec.getActive() == null) {
            spec.setActive(Boolean.TRUE);
        }
        if (spec.getPodSets() != null) {
            for (PodSet podSet : spec.getPodSets()) {
                if (podSet.getName() == null) {
                    podSet.setName(DEFAULT_POD_SET_NAME);
                }
                if (podSet.getCount() == null) {
                    podSet.setCount(1);
                }
            }
        }
        return spec;
    }
}
