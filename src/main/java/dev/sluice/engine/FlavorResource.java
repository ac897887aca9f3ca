package dev.sluice.engine;

import java.util.Comparator;

/** A (flavor, resource) pair: the unit of quota accounting. */
public record FlavorResource(String flavor, String resource) implements Comparable<FlavorResource> {
    private static final Comparator<FlavorResource> ORDER =
            Comparator.comparing(FlavorResource::flavor).thenComparing(FlavorResource::resource);

    @Override
    public int compareTo(FlavorResource o) {
        return ORDER.compare(this, o);
    }
}
