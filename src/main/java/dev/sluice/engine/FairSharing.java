package dev.sluice.engine;

import java.util.List;

/**
 * Kueue's fairSharing configuration: when enabled, heads are ordered by the weighted share of each node of the cohort
 * tree, and preemption between queues follows the strategies in order (Kueue's default: LessThanOrEqualToFinalShare,
 * then LessThanInitialShare).
 */
public record FairSharing(boolean enabled, List<FairSharingStrategy> strategies) {
    public static final FairSharing OFF = new FairSharing(false, null);

    public FairSharing {
        strategies = strategies == null || strategies.isEmpty()
                ? List.of(FairSharingStrategy.LessThanOrEqualToFinalShare, FairSharingStrategy.LessThanInitialShare)
                : List.copyOf(strategies);
    }

    public static FairSharing on() {
        return new FairSharing(true, null);
    }
}
