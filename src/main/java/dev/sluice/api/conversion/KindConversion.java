package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One kind's differences between v1beta1 and v1beta2, applied in place to a copy of the object. {@code up} turns
 * v1beta1 into v1beta2 and keeps what v1beta2 cannot say in {@code keep}; {@code earlier} holds what an earlier
 * conversion the other way kept. Entries of {@code earlier} that a kind does not take out are put back as they were.
 */
interface KindConversion {

    void up(ObjectNode object, Stash keep, Stash earlier, String name) throws ConversionException;

    void down(ObjectNode object, Stash keep, Stash earlier, String name) throws ConversionException;

    /** ResourceFlavor, WorkloadPriorityClass and Topology read the same in both versions. */
    KindConversion SAME = new KindConversion() {
        @Override
        public void up(ObjectNode object, Stash keep, Stash earlier, String name) {
        }

        @Override
        public void down(ObjectNode object, Stash keep, Stash earlier, String name) {
        }
    };
}
