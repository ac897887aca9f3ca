package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Kueue's localqueue_conversion.go: status.flavorUsage is status.flavorsUsage; v1beta1's status.flavors is gone. */
final class LocalQueueConversion implements KindConversion {

    @Override
    public void up(ObjectNode lq, Stash keep, Stash earlier, String name) {
        Tree.rename(lq, "/status", "flavorUsage", "flavorsUsage");
        Tree.drop(lq, "/status/flavors", keep);
    }

    @Override
    public void down(ObjectNode lq, Stash keep, Stash earlier, String name) {
        Tree.rename(lq, "/status", "flavorsUsage", "flavorUsage");
    }
}
