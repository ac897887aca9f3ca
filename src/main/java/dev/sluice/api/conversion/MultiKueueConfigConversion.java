package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Kueue's multikueue_conversion.go: v1beta1 has no spec.quotaManagement (Kueue drops it; Sluice keeps it). */
final class MultiKueueConfigConversion implements KindConversion {

    @Override
    public void up(ObjectNode config, Stash keep, Stash earlier, String name) {
    }

    @Override
    public void down(ObjectNode config, Stash keep, Stash earlier, String name) {
        Tree.drop(config, "/spec/quotaManagement", keep);
    }
}
