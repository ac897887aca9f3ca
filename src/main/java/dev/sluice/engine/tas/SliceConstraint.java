package dev.sluice.engine.tas;

import java.util.Objects;

/** One layer of Kueue's podsetSliceRequiredTopologyConstraints: groups of {@code size} pods, each within one domain of {@code topology}. */
public record SliceConstraint(String topology, int size) {
    public SliceConstraint {
        Objects.requireNonNull(topology, "slice topology level");
    }
}
