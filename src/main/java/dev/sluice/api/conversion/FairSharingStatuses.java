package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * v1beta1 shares one FairSharingStatus type between ClusterQueue, Cohort and LocalQueue, with
 * admissionFairSharingStatus in it; v1beta2 keeps that field only for LocalQueues.
 */
final class FairSharingStatuses {

    static final String ADMISSION = "/status/fairSharing/admissionFairSharingStatus";

    private FairSharingStatuses() {
    }

    static void up(ObjectNode object, Stash keep) {
        Tree.drop(object, ADMISSION, keep);
    }
}
