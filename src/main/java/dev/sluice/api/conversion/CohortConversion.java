package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Kueue's cohort_conversion.go: the same fields, but v1beta2's status.fairSharing has no admission part. */
final class CohortConversion implements KindConversion {

    @Override
    public void up(ObjectNode cohort, Stash keep, Stash earlier, String name) {
        FairSharingStatuses.up(cohort, keep);
    }

    @Override
    public void down(ObjectNode cohort, Stash keep, Stash earlier, String name) {
    }
}
