package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Kueue's admissioncheck_conversion.go: the same fields, but v1beta2 has no spec.retryDelayMinutes (Kueue drops it;
 * Sluice keeps it for the way back).
 */
final class AdmissionCheckConversion implements KindConversion {

    @Override
    public void up(ObjectNode check, Stash keep, Stash earlier, String name) {
        Tree.drop(check, "/spec/retryDelayMinutes", keep);
    }

    @Override
    public void down(ObjectNode check, Stash keep, Stash earlier, String name) {
    }
}
